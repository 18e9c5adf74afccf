/**
 * The description of both nodes. n8n's nodes panel shows the action node and the trigger as one
 * entry ("Identity Verification", with its actions and its trigger events) and gives that entry the
 * trigger's description, also under "What happens next?" where a user adds an action: one sentence
 * that says what both do keeps the entry right in either place. Its second half tells the entry
 * from "Identity Verification Polling" beside it, so a user behind a firewall picks that one.
 */
export const NODE_DESCRIPTION =
	'Verify people and companies (KYC, KYB, AML screening and monitoring, bank accounts, proof of address) and start workflows on their results the moment they come (n8n needs a public URL for that)';
