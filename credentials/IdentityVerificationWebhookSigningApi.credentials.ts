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
			displayName: 'Signing Key',
			// Named *Secret* so n8n's lint recognises it as sensitive; shown as "Signing Key", the contract's word.
			name: 'signingSecret',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			hint: 'From the provider’s dashboard: Settings → Notifications, open the notification and copy its Signing key. Each notification has its own key; it is not your API secret.',
			description:
				'The key the service signs each webhook delivery with (the <prefix>-Signature header). Copy it from the dashboard where your webhook URL is configured (Settings → Notifications → Webhook URLs) or ask the provider’s support. It is not your API secret.',
		},
		{
			displayName: 'Header Prefix',
			name: 'headerPrefix',
			type: 'string',
			default: 'Service',
			placeholder: 'Service',
			description:
				'The first word of the delivery headers: deliveries carry <prefix>-Signature and <prefix>-Event-Type. To see the names your service uses, open a delivery in the dashboard (Settings → Notifications → Recently sent → Details) and enter the word before "-Signature", e.g. the provider’s name.',
		},
	];
}
