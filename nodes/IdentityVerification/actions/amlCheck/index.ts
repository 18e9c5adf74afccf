import * as create from './create.operation';
import * as downloadPdf from './downloadPdf.operation';
import * as downloadProfilePdf from './downloadProfilePdf.operation';
import * as getProfile from './getProfile.operation';

/** The operations of AML Check, by their value: the router runs them, the build writes their schemas. */
export const operations = { create, downloadPdf, downloadProfilePdf, getProfile };
