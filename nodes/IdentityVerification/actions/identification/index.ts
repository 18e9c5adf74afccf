import * as addToBlocklist from './addToBlocklist.operation';
import * as createVerificationToken from './createVerificationToken.operation';
import * as deletePersonalData from './deletePersonalData.operation';
import * as downloadFiles from './downloadFiles.operation';
import * as downloadReportPdf from './downloadReportPdf.operation';
import * as getData from './getData.operation';
import * as getAll from './getAll.operation';
import * as getResult from './getResult.operation';
import * as getStatus from './getStatus.operation';
import * as removeFromBlocklist from './removeFromBlocklist.operation';
import * as requestInformation from './requestInformation.operation';

/**
 * The operations of Identification the router runs, one item at a time, by their value. Wait for
 * Result is not one of them: it runs once for all items and pauses the execution, so the node calls
 * it directly; it has no output schema (it continues with the trigger's event).
 */
export const operations = {
	addToBlocklist,
	createVerificationToken,
	deletePersonalData,
	downloadFiles,
	downloadReportPdf,
	getData,
	getAll,
	getResult,
	getStatus,
	removeFromBlocklist,
	requestInformation,
};
