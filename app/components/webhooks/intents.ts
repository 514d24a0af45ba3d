/** The webhooks page's forms, one intent each (the page's action dispatches on them). */
export const WEBHOOK_INTENTS = {
  add: "webhook-add",
  remove: "webhook-remove",
  enable: "webhook-enable",
  redeliver: "webhook-redeliver",
} as const;

/** The address that opens the Remove confirmation, so it works without JavaScript. */
export const REMOVE_PARAM = "removeWebhook";
