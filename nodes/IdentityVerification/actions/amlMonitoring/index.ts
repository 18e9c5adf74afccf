import * as create from './create.operation';
import * as deleteMonitoring from './delete.operation';
import * as downloadPdf from './downloadPdf.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as removeProfile from './removeProfile.operation';
import * as start from './start.operation';
import * as stop from './stop.operation';
import * as update from './update.operation';

/**
 * The operations of AML Monitoring, by their value: the router runs them, the build writes their
 * schemas. In the alphabetical order of their names, as the selector lists them.
 */
export const operations = {
	create,
	delete: deleteMonitoring,
	downloadPdf,
	get,
	getAll,
	removeProfile,
	start,
	stop,
	update,
};
