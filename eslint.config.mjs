// n8n's lint rules for community nodes (the @n8n/node-cli template's config): `npm run lint`.
import { config } from '@n8n/node-cli/eslint';

export default config;
