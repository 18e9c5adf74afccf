import * as createToken from './createToken.operation';
import * as listTransactions from './listTransactions.operation';

/** The operations of Bank, by their value: the router runs them, the build writes their schemas. */
export const operations = { createToken, listTransactions };
