import type {
	IBinaryKeyData,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';
import { z } from 'zod';

import { isPlainObject } from '../../../shared/isPlainObject';
import { apiRequest, isRunOver, runBudgetOf, runOverWords } from '../../transport';
import { downloadLink } from '../../transport/download';
import type { ApiRequest, RunBudget } from '../../transport';
import {
	maxFileBytesOf,
	maxFileSizeOption,
	maxTotalBytesOf,
	maxTotalSizeOption,
} from '../../helpers/fileDownload';
import { fileItemSchema } from '../../helpers/fileItem';
import { scanRefField, scanRefOf } from './common';

const properties: INodeProperties[] = [
	{
		displayName:
			'The links the service gives are valid for about an hour: run this as soon as the verification is finished (for example right after the trigger) and keep the files, e.g. in a drive.',
		name: 'downloadFilesNotice',
		type: 'notice',
		default: '',
	},
	scanRefField(
		'The scanRef of the verification, from Get Many, the Create Verification Token response or a webhook',
	),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Include Videos',
				name: 'includeVideos',
				type: 'boolean',
				default: false,
				description:
					'Whether to download the videos the service lists too (FRONT_VIDEO, BACK_VIDEO, FACE_VIDEO), which can be large',
			},
			maxFileSizeOption,
			maxTotalSizeOption,
		],
	},
];

export const option: INodePropertyOptions = {
	name: 'Download Files',
	value: 'downloadFiles',
	description:
		'Download the photos of one verification (document front and back, face) by its scanRef, each into a binary field named by its kind (FRONT, BACK, FACE)',
	action: 'Download the photos of a verification',
};

const displayOptions = { show: { resource: ['identification'], operation: ['downloadFiles'] } };

export const description = updateDisplayOptions(displayOptions, properties);

export const outputSchema = z.object({
	scanRef: z.string(),
	files: z.array(z.object({ kind: z.string() }).merge(fileItemSchema)),
	notAvailable: z.array(z.string()),
});

/** What a file of a verification may be: photos, a document of an additional step, videos. */
const ACCEPTED = ['jpeg', 'png', 'webp', 'heic', 'heif', 'pdf', 'video'];

/** More links than this in one answer are not followed (the answer is the network's to size). */
const MAX_FILES = 50;

/**
 * The links of the answer by kind: its `fileUrls` (the webhook's shape) or its own fields, and its
 * `additionalStepPdfUrls`. A kind without a link (null, empty) is not available; a field of other
 * text or kind (a scanRef the answer may carry) is no file.
 */
function linksOf(answer: unknown): Array<[string, unknown]> {
	if (!isPlainObject(answer)) return [];
	const files = isPlainObject(answer.fileUrls) ? answer.fileUrls : answer;
	const steps = isPlainObject(answer.additionalStepPdfUrls) ? answer.additionalStepPdfUrls : {};
	return Object.entries({ ...files, ...steps }).filter(
		([, link]) => link === null || link === '' || isLink(link),
	);
}

/** A binary field's name from the kind the service gave (letters, digits, `_` and `-`). */
const fieldOf = (kind: string) => kind.replace(/[^\w-]/g, '_');

/** A web address (whether it may be followed is downloadLink's to say). */
const isLink = (link: unknown): link is string =>
	typeof link === 'string' && /^https?:\/\//i.test(link.trim());

/** How large the item's files may be: each (Max File Size), and all together (Max Total Size). */
interface SizeBounds {
	fileBytes: number;
	totalBytes: number;
}

/**
 * Each linked file, downloaded one after the other (each within the size bounds and the run's time),
 * named `<scanRef>-<kind>` so that files kept together say whose they are.
 */
async function downloadAll(
	this: IExecuteFunctions,
	scanRef: string,
	links: Array<[string, string]>,
	bounds: SizeBounds,
	itemIndex: number,
): Promise<{ files: IDataObject[]; binary: IBinaryKeyData }> {
	if (links.length > MAX_FILES) {
		throw new NodeOperationError(
			this.getNode(),
			`The service listed ${links.length} files for this verification; at most ${MAX_FILES} are downloaded`,
			{ itemIndex, description: 'Report it to the service provider.' },
		);
	}
	const files: IDataObject[] = [];
	const binary: Array<[string, IBinaryKeyData[string]]> = [];
	let total = 0;
	for (const [kind, link] of links) {
		const done = { downloaded: files.length, listed: links.length };
		const budget = runBudgetOf(this, itemIndex);
		if (isRunOver(budget)) throw runOverError.call(this, budget, done, itemIndex);
		const left = bounds.totalBytes - total;
		if (left <= 0) {
			const { message, advice } = totalTooLarge(bounds, done);
			throw new NodeOperationError(this.getNode(), message, { itemIndex, description: advice });
		}
		const what = `${kind} file`;
		const file = await downloadLink.call(
			this,
			link,
			{ name: `${scanRef}-${fieldOf(kind)}`, accepts: ACCEPTED, what },
			{ itemIndex, ...sizeBoundOf(bounds, left, done) },
		);
		total += file.fileSize;
		files.push({ kind, fileName: file.fileName, mimeType: file.mimeType, fileSize: file.fileSize });
		binary.push([fieldOf(kind), file.binary]);
	}
	// Own fields whatever a kind is called (one named __proto__ stays a field).
	return { files, binary: Object.fromEntries(binary) };
}

/** How far the item's downloads got: for the messages that stop them. */
interface Progress {
	downloaded: number;
	listed: number;
}

/** What reaching Max Total Size says, and what to change. */
function totalTooLarge(bounds: SizeBounds, done: Progress): { message: string; advice: string } {
	const megabytes = Math.round((bounds.totalBytes / 1024 / 1024) * 10) / 10;
	return {
		message: `The files of this verification are larger than the Max Total Size of ${megabytes} MB in all (${done.downloaded} of ${done.listed} files were downloaded)`,
		advice:
			'Reading stopped at the limit. Raise Max Total Size (MB) in the node’s Options if a verification’s files may be that large, or leave Include Videos off.',
	};
}

/**
 * The next file's size bound: Max File Size, or what is left of Max Total Size when that is less
 * (reading stops there, and the error names Max Total Size).
 */
function sizeBoundOf(
	bounds: SizeBounds,
	left: number,
	done: Progress,
): Pick<ApiRequest, 'maxBytes' | 'tooLarge'> {
	if (left >= bounds.fileBytes) return { maxBytes: bounds.fileBytes };
	return { maxBytes: left, tooLarge: totalTooLarge(bounds, done) };
}

/** The node run's time budget was spent before all files were downloaded. */
function runOverError(
	this: IExecuteFunctions,
	budget: RunBudget,
	done: Progress,
	itemIndex: number,
): NodeOperationError {
	const words = runOverWords(
		budget,
		'download fewer files per run (fewer items, without Include Videos)',
	);
	return new NodeOperationError(
		this.getNode(),
		`The files of this verification were not all downloaded: ${words.happened} (${done.downloaded} of ${done.listed} files were downloaded)`,
		{ itemIndex, description: words.advice },
	);
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const scanRef = scanRefOf.call(this, itemIndex);
	const { includeVideos } = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const bounds = {
		fileBytes: maxFileBytesOf.call(this, itemIndex),
		totalBytes: maxTotalBytesOf.call(this, itemIndex),
	};
	const answer = await apiRequest.call(this, 'apiKey', {
		method: 'POST',
		path: '/api/v2/files',
		body: { scanRef },
		// Only reads: a failed answer is asked for again.
		repeatable: true,
		itemIndex,
	});
	const links = linksOf(answer.body).filter(
		([kind]) => includeVideos === true || !kind.endsWith('_VIDEO'),
	);
	const listed = links.filter((entry): entry is [string, string] => isLink(entry[1]));
	const { files, binary } = await downloadAll.call(this, scanRef, listed, bounds, itemIndex);
	const notAvailable = links.filter(([, link]) => !isLink(link)).map(([kind]) => kind);
	const json = { scanRef, files, notAvailable };
	return [files.length > 0 ? { json, binary } : { json }];
}
