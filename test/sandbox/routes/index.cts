/** Every service route of the sandbox. */
import type { Route } from '../router.cjs';
import { bankRoutes } from './bank.cjs';

export const serviceRoutes: Route[] = [...bankRoutes];
