/**
 * One mailbox under its many spellings (decision 043). Providers deliver `name+anything@host` to
 * `name@host` (sub-addressing, RFC 5233), every provider ignores the case of the address, and
 * Gmail also ignores dots in the local part and answers to googlemail.com. Used where an address
 * must not be another spelling of someone's own, never to store or to mail: the address as typed
 * is what we keep and write to.
 */

/** Domains whose local part ignores dots (Gmail), each mapped to the one it is an alias of. */
const DOTLESS_DOMAINS: Readonly<Record<string, string>> = {
  "gmail.com": "gmail.com",
  "googlemail.com": "gmail.com",
};

/** The mailbox an address reaches: lower case, without a `+tag`, without Gmail's dots. */
export function canonicalMailbox(address: string): string {
  const trimmed = address.trim().toLowerCase();
  const at = trimmed.lastIndexOf("@");
  if (at <= 0) return trimmed;
  let local = trimmed.slice(0, at);
  let domain = trimmed.slice(at + 1).replace(/\.$/, "");
  const plus = local.indexOf("+");
  if (plus > 0) local = local.slice(0, plus);
  const dotless = DOTLESS_DOMAINS[domain];
  if (dotless) {
    domain = dotless;
    local = local.replaceAll(".", "");
  }
  return `${local}@${domain}`;
}

/** Whether two addresses reach one mailbox. */
export function sameMailbox(a: string, b: string): boolean {
  return canonicalMailbox(a) === canonicalMailbox(b);
}
