import * as createCheck from './createCheck.operation';

/**
 * The operations of Proof of Address, by their value: the router runs them, the build writes their
 * schemas.
 */
export const operations = { createCheck };
