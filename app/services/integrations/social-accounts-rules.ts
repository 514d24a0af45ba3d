/**
 * Social account linking's words, without zod: the dashboard card imports them, and zod stays
 * out of the dashboard's first load.
 */
export const SOCIAL_MESSAGES = {
  empty:
    "No account added yet. Click the Link account button to start displaying social media feed to your StackShift site.",
  professional: "I already have an Instagram professional account",
  openFailed: "Something went wrong when opening the Instagram login window.",
  unlinkFailed: "Something went wrong when trying to unlink the Instagram account.",
  unlinked: "Instagram account unlinked",
  unlinkWhich:
    "This project has several linked Instagram accounts: name the one to unlink with accountId or userName",
  alreadyLinked:
    "Instagram Account is already linked! You can only link 1 account per unique username.",
  linkFailed: "Instagram could not complete the linking. Try again in a moment.",
} as const;
