/** What the pages say after a recovery ended every access (account-access.server.ts). */

/** "2 API tokens were revoked: ...", for the page after a recovery; null when there were none. */
export function revokedTokensText(tokens: number): string | null {
  if (tokens <= 0) return null;
  return `${tokens} API token${tokens === 1 ? " was" : "s were"} revoked: scripts using ${tokens === 1 ? "it" : "them"} are refused from now on.`;
}
