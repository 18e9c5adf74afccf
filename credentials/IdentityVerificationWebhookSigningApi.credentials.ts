import type { Icon, ICredentialType, INodeProperties } from 'n8n-workflow';

/**
 * The key the service signs webhook deliveries with (HMAC-SHA256 over the raw body). Both nodes
 * that receive deliveries use it: the Identity Verification Trigger and the action node's Wait for
 * Result step. Both test it with `webhookSigningKeyTest` (nodes/shared/webhook/credentialTest.ts),
 * locally: nothing is sent anywhere.
 */
export class IdentityVerificationWebhookSigningApi implements ICredentialType {
	name = 'identityVerificationWebhookSigningApi';

	displayName = 'Identity Verification Webhook Signing API';

	icon: Icon = {
		light: 'file:identityVerification.svg',
		dark: 'file:identityVerification.dark.svg',
	};

	documentationUrl =
		'https://github.com/n8n-nodes-identity-verification/n8n-nodes-identity-verification#credentials';

	properties: INodeProperties[] = [
		{
			// n8n's editor shows only "Connection tested successfully" for a passed test, never its message.
			displayName:
				'The Test button checks only that a key is entered, on one line and without spaces around it: the service has no way to check a signing key, and the key is never sent anywhere. Only a delivery shows that it is the right key: a wrong one is refused, and while the workflow listens for a test event the editor shows why.',
			name: 'testNotice',
			type: 'notice',
			default: '',
		},
		{
			displayName: 'Signing Key',
			// Named *Secret* so n8n's lint recognises it as sensitive; shown as "Signing Key", the contract's word.
			name: 'signingSecret',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			hint: 'From the provider’s dashboard: Settings → Notifications, open the notification and copy its Signing key. Each notification has its own key; it is not your API secret.',
			description:
				'The key the service signs each webhook delivery with (its Idenfy-Signature header). Copy it from the dashboard where your webhook URL is configured (Settings → Notifications → Webhook URLs) or ask the provider’s support. It is not your API secret.',
		},
		{
			displayName: 'Header Prefix',
			name: 'headerPrefix',
			type: 'string',
			// Empty: both the contract's Service-… and the provider's Idenfy-… (acceptedHeaderSets).
			default: '',
			placeholder: 'e.g. Idenfy',
			hint: 'Leave empty: deliveries are read under Idenfy-Signature and Idenfy-Event-Type (iDenfy’s names) or Service-Signature and Service-Event-Type. Enter a word only to accept that one, e.g. Idenfy.',
			description:
				'The first word of the delivery headers, before "-Signature" and "-Event-Type". To see the names your service uses, open a delivery in the dashboard (Settings → Notifications → Recently sent → Details). "Service" reads both, like empty.',
		},
	];
}
