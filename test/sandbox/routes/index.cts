/** Every service route of the sandbox. */
import type { Route } from '../router.cjs';
import { amlRoutes } from './aml.cjs';
import { bankRoutes } from './bank.cjs';
import { kybRoutes } from './kyb.cjs';
import { kycRoutes } from './kyc.cjs';
import { poaRoutes } from './poa.cjs';
import { statusRoutes } from './status.cjs';

export const serviceRoutes: Route[] = [
	...kycRoutes,
	...statusRoutes,
	...bankRoutes,
	...poaRoutes,
	...amlRoutes,
	...kybRoutes,
];
