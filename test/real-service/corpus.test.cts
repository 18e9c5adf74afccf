/**
 * The corpus of what the real service publishes (test/fixtures/real-service/): the README lists
 * exactly the files present, every file parses, the OpenAPI documents keep the checksums the README
 * records (so nothing reformatted them), and webhooks/index.json names real files and real event
 * kinds.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

import { parse as parseYaml } from 'yaml';

// Tests run compiled from .build/test/real-service/; the corpus is in the source tree.
const ROOT = path.resolve(__dirname, '..', '..', '..', 'test', 'fixtures', 'real-service');
const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');

interface IndexEntry {
	file: string;
	eventType: string;
	bodySchema: string;
	note: string;
}
interface WebhookIndex {
	header: string;
	files: IndexEntry[];
}
interface WebhookOperation {
	post?: {
		parameters?: Array<{ in: string; name: string; schema?: { enum?: string[] } }>;
		requestBody?: { content?: Record<string, { schema?: { $ref?: string } }> };
	};
}
interface OpenApiDocument {
	openapi: string;
	components: { schemas: Record<string, unknown> };
	webhooks?: Record<string, WebhookOperation>;
}

/** Every file below the corpus folder, as a path relative to it with forward slashes. */
function listFiles(dir: string, prefix = ''): string[] {
	return readdirSync(dir).flatMap((name) => {
		const full = path.join(dir, name);
		const relative = prefix ? `${prefix}/${name}` : name;
		return statSync(full).isDirectory() ? listFiles(full, relative) : [relative];
	});
}

/** The files the README's tables list: the first cell of each row, in backticks. */
function pathsInReadme(): string[] {
	return [...README.matchAll(/^\| `([^`]+)` \|/gm)].map((match) => match[1]);
}

function readText(file: string): string {
	return readFileSync(path.join(ROOT, file), 'utf8');
}

function sha256(file: string): string {
	return createHash('sha256')
		.update(readFileSync(path.join(ROOT, file)))
		.digest('hex');
}

const FILES = listFiles(ROOT).filter((file) => file !== 'README.md');
const JSON_FILES = FILES.filter((file) => file.endsWith('.json'));
const YAML_FILES = FILES.filter((file) => file.endsWith('.yaml'));
const OPENAPI: Array<[string, OpenApiDocument]> = YAML_FILES.map((file) => [
	file,
	parseYaml(readText(file)) as OpenApiDocument,
]);
const INDEX = JSON.parse(readText('webhooks/index.json')) as WebhookIndex;

/** Each Idenfy-Event-Type value the OpenAPI documents declare, with the body schema it comes with. */
function declaredEventTypes(): Map<string, string | undefined> {
	const kinds = new Map<string, string | undefined>();
	for (const [, document] of OPENAPI) {
		for (const operation of Object.values(document.webhooks ?? {})) {
			const header = operation.post?.parameters?.find(
				(parameter) => parameter.in === 'header' && parameter.name === 'Idenfy-Event-Type',
			);
			const ref = operation.post?.requestBody?.content?.['application/json']?.schema?.$ref;
			for (const kind of header?.schema?.enum ?? []) kinds.set(kind, ref?.split('/').pop());
		}
	}
	return kinds;
}

describe('README of the corpus', () => {
	test('names every file of the folder, and only files that exist', () => {
		expect(pathsInReadme().sort()).toEqual([...FILES].sort());
	});

	test.each(YAML_FILES)('%s keeps the sha256 the README records', (file) => {
		expect(README).toContain(sha256(file));
	});
});

describe('every file parses', () => {
	test.each(JSON_FILES)('%s is JSON', (file) => {
		expect(() => JSON.parse(readText(file))).not.toThrow();
	});

	test.each(OPENAPI)('%s is an OpenAPI 3 document with schemas', (_file, document) => {
		expect(document.openapi).toMatch(/^3\./);
		expect(Object.keys(document.components.schemas).length).toBeGreaterThan(0);
	});
});

describe('webhooks/index.json', () => {
	const kinds = declaredEventTypes();
	const bodies = FILES.filter(
		(file) => file.startsWith('webhooks/') && file !== 'webhooks/index.json',
	).map((file) => file.slice('webhooks/'.length));

	test('names the header the provider sends the event kind in', () => {
		expect(INDEX.header).toBe('Idenfy-Event-Type');
	});

	test('lists every webhook body of the folder once, and only those', () => {
		expect(INDEX.files.map((entry) => entry.file).sort()).toEqual(bodies.sort());
	});

	test.each(INDEX.files)(
		'$file: its event kind is one the OpenAPI documents declare, with that body schema',
		(entry) => {
			expect(entry.file.startsWith(`${entry.eventType}.`)).toBe(true);
			expect(kinds.has(entry.eventType)).toBe(true);
			expect(kinds.get(entry.eventType)).toBe(entry.bodySchema);
		},
	);

	test('the OpenAPI documents declare the identification, bank and KYB kinds', () => {
		for (const kind of [
			'IDENTIFICATION',
			'IDENTIFICATION_AUTO_FINISHED',
			'IDENTIFICATION_MANUAL_FINISHED',
			'IDENTIFICATION_EXPIRED',
			'IDENTIFICATION_CANCELLED',
			'IDENTIFICATION_RESUBMITTED',
			'BANK_VERIFICATION',
			'ACCOUNT_CHECK',
			'BANK_CARD_VERIFICATION_COMPLETED',
			'COMPANY_REVIEW',
			'AML_MONITORING',
		]) {
			expect(kinds.has(kind)).toBe(true);
		}
	});
});
