/**
 * The intent the domain dialog posts; the dashboard's action hands it to its domains action. Apart
 * from the dialog so that the Domain Settings card does not load the dialog's form with it.
 */
export const DOMAIN_INTENT = "domain-change";
