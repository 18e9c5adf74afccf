/** Every service route of the sandbox. */
import type { Route } from '../router.cjs';
import { amlRoutes } from './aml.cjs';
import { amlMonitoringRoutes } from './amlMonitorings.cjs';
import { bankRoutes } from './bank.cjs';
import { govDocumentRoutes } from './govDocuments.cjs';
import { homePageRoutes } from './homePage.cjs';
import { kybRoutes } from './kyb.cjs';
import { kybCompanyRoutes } from './kybCompanies.cjs';
import { kybFormPageRoutes } from './kybFormPage.cjs';
import { kycRoutes } from './kyc.cjs';
import { poaRoutes } from './poa.cjs';
import { verificationPageRoutes } from './verificationPage.cjs';

export const serviceRoutes: Route[] = [
	...kycRoutes,
	...bankRoutes,
	...poaRoutes,
	...amlRoutes,
	...amlMonitoringRoutes,
	...kybRoutes,
	...kybCompanyRoutes,
	...govDocumentRoutes,
	...verificationPageRoutes,
	...kybFormPageRoutes,
	...homePageRoutes,
];
