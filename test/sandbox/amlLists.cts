/**
 * The sandbox's AML lists: a few invented profiles (persons and companies, on sanctions, PEP and
 * other datasets) in the shapes of the provider's AML schemas (aml.yaml: `IndividualProfileSchema`,
 * `BusinessProfileSchema`, the search results of a check, adverse media), and how a check finds
 * them: names compared as sets of words (case, accents, punctuation and order ignored, aliases
 * included) scored 0–100 against the check's threshold, then its datasets and date-of-birth
 * matching. Sanction bodies and PEP tiers of a filter are taken but not applied (see README).
 * Also: a check as the service answers it, and the PDF reports of checks and monitorings.
 */
import { randomUUID } from 'node:crypto';

import {
	AML_COMPANY_DATASETS,
	AML_PERSON_DATASETS,
	amlCheckRequestSchema,
	type AmlCheckRequest,
} from '../../nodes/shared/contract';
import type { Reply } from './http.cjs';
import { buildPdf } from './pdf.cjs';

type Json = Record<string, unknown>;

export interface ListedProfile {
	userType: 'PERSON' | 'COMPANY';
	/** The whole profile, as Get Profile answers it. */
	profile: Json;
	/** Names it is found by: its own and its aliases. */
	names: string[];
	/** Adverse media articles a check of this name also finds. */
	adverseMedia?: Json[];
}

const FILES = 'https://files.sandbox.invalid/aml';

const noEntries = {
	notes: [],
	contactEntries: [],
	identifiers: [],
	relEntries: [],
	rreEntries: [],
	poiEntries: [],
	insEntries: [],
	individualLinks: [],
	businessLinks: [],
	griEntries: [],
	profileImages: [],
};

function person(fields: {
	resourceId: string;
	firstName: string;
	lastName: string;
	aliases?: Array<{ firstName: string; lastName: string; type: string }>;
	gender: 'MALE' | 'FEMALE';
	dateOfBirth: string;
	nationality: string;
	city: string;
	datasets: string[];
	pepTier?: string;
	sanctions?: Json[];
	pepRoles?: Json[];
}): ListedProfile {
	const profile: Json = {
		...noEntries,
		version: 3,
		resourceId: fields.resourceId,
		firstName: fields.firstName,
		lastName: fields.lastName,
		gender: fields.gender,
		isDeleted: false,
		isDeceased: false,
		aliases: fields.aliases ?? [],
		datesOfBirth: [fields.dateOfBirth],
		datesOfDeath: [],
		nationalities: [fields.nationality],
		addresses: [{ city: fields.city, country: fields.nationality, addressType: 'RESIDENTIAL' }],
		profileImages: [`${FILES}/${fields.resourceId}.jpg`],
		evidences: [],
		sanEntries: { current: fields.sanctions ?? [], former: [] },
		ddEntries: [],
		pepEntries: { pepTier: fields.pepTier, current: fields.pepRoles ?? [], former: [] },
		pepByAssociationEntries: [],
		datasets: fields.datasets,
	};
	if (!fields.pepTier) delete (profile.pepEntries as Json).pepTier;
	const aliases = (fields.aliases ?? []).map((a) => `${a.firstName} ${a.lastName}`);
	return {
		userType: 'PERSON',
		profile,
		names: [`${fields.firstName} ${fields.lastName}`, ...aliases],
	};
}

const EU_SANCTION = {
	sanctionId: 'EU-2022-0311',
	measures: ['Asset freeze', 'Travel ban'],
	regime: {
		body: 'European Union',
		bodyId: 40,
		name: 'Restrictive measures in respect of actions undermining territorial integrity',
		origin: 'EU',
		types: ['TERRITORIAL_VIOLATION'],
	},
	events: [{ type: 'ADDED', date: '2022-03-15', evidenceIds: ['ev-eu-0311'] }],
};

/** The profiles of the sandbox's lists. `prof-001` is the seeded check's hit (SEED.aml). */
const LISTED: ListedProfile[] = [
	person({
		resourceId: 'prof-001',
		firstName: 'Aleksandr',
		lastName: 'Volkov',
		aliases: [{ firstName: 'Alexander', lastName: 'Volkov', type: 'NAME_SPELLING_VARIATION' }],
		gender: 'MALE',
		dateOfBirth: '1968-02-11',
		nationality: 'RU',
		city: 'Moscow',
		datasets: ['SAN_CURRENT', 'PEP_FORMER'],
		sanctions: [EU_SANCTION],
	}),
	person({
		resourceId: 'prof-pep-002',
		firstName: 'Łukasz',
		lastName: 'Müller-Wiśniewski',
		gender: 'MALE',
		dateOfBirth: '1990-03-17',
		nationality: 'PL',
		city: 'Kraków',
		datasets: ['PEP_CURRENT'],
		pepTier: 'PEP_TIER_2',
		pepRoles: [
			{
				country: 'PL',
				segment: 'Regional government',
				position: 'Member of the Regional Assembly',
				dateFrom: '2019-11',
				evidenceIds: ['ev-pl-2019'],
			},
		],
	}),
	{
		userType: 'COMPANY',
		names: ['Baltic Shadow Trading Ltd', 'Baltic Shadow Trading'],
		profile: {
			...noEntries,
			version: 2,
			resourceId: 'biz-003',
			name: 'Baltic Shadow Trading Ltd',
			isDeleted: false,
			aliases: [{ alias: 'Baltic Shadow Trading', type: 'NAME_SPELLING_VARIATION' }],
			addresses: [{ city: 'Limassol', country: 'CY', addressType: 'REGISTERED' }],
			businessTypes: ['SHELL_CORPORATION'],
			activities: ['Wholesale of fuels'],
			evidences: [],
			sanEntries: { current: [EU_SANCTION], former: [] },
			datasets: ['SAN_CURRENT'],
		},
		adverseMedia: [
			{
				title: 'Regulator fines Baltic Shadow Trading over sanctions breaches',
				url: 'https://news.sandbox.invalid/baltic-shadow-trading-fined',
				text: 'The trading company was fined for shipping fuel to a sanctioned buyer (sandbox test data).',
				score: 92,
				type: 'NEGATIVE',
				publishDate: '2025-06-02',
			},
		],
	},
];

/** The sandbox's AML datasets in words, for the test names' list. */
const DATASET_WORDS: Record<string, string> = {
	SAN_CURRENT: 'on a sanctions list',
	SAN_FORMER: 'formerly on a sanctions list',
	PEP_CURRENT: 'a politically exposed person (PEP)',
	PEP_FORMER: 'a former PEP',
};

/** A name to screen in the sandbox and what it produces (the home page, the CLI and the demo print them). */
export interface AmlTestName {
	name: string;
	userType: 'PERSON' | 'COMPANY';
	produces: string;
}

/** Every listed name (aliases included) with its hit, then a name that is on no list. */
export function amlTestNames(): AmlTestName[] {
	const listed = LISTED.map((entry): AmlTestName => {
		const words = (entry.profile.datasets as string[]).map((d) => DATASET_WORDS[d] ?? d);
		if (entry.adverseMedia?.length)
			words.push(`${entry.adverseMedia.length} adverse media article`);
		const [name, ...aliases] = entry.names;
		const alias = aliases.length ? `; also found as "${aliases.join('", "')}"` : '';
		return {
			name,
			userType: entry.userType,
			produces: `FLAGS_FOUND, a hit (${entry.profile.resourceId}): ${words.join(', ')}${alias}`,
		};
	});
	const clear: AmlTestName = {
		name: 'Jonas Jonaitis',
		userType: 'PERSON',
		produces:
			'NO_FLAGS, no hit; so does any other name, real sanctioned people included (e.g. Vladimir Putin): the sandbox’s lists are invented',
	};
	return [...listed, clear];
}

/** A profile by its ID, whatever check found it. */
export function listedProfile(resourceId: string): ListedProfile | undefined {
	return LISTED.find((listed) => listed.profile.resourceId === resourceId);
}

/** A name's words: lower case, without accents and punctuation. */
function wordsOf(name: string): string[] {
	return name
		.normalize('NFKD')
		.replace(/[\u0300-\u036f]/g, '')
		.replace(/ł/g, 'l')
		.toLowerCase()
		.split(/[^\p{L}\p{N}]+/u)
		.filter(Boolean);
}

/** 100 for the same words in any order, less for fewer words in common (Dice's coefficient). */
function nameScore(a: string, b: string): number {
	const left = wordsOf(a);
	const right = new Set(wordsOf(b));
	if (left.length === 0 || right.size === 0) return 0;
	const common = left.filter((word) => right.has(word)).length;
	return Math.round((200 * common) / (left.length + right.size));
}

const DOB_YEARS: Record<string, number> = {
	SAME_YEAR: 0,
	WITHIN_ONE_YEAR: 1,
	WITHIN_TWO_YEARS: 2,
	WITHIN_THREE_YEARS: 3,
	WITHIN_FOUR_YEARS: 4,
	WITHIN_FIVE_YEARS: 5,
};

/** Whether a profile's date of birth is close enough to the one asked for (none asked: yes). */
function birthMatches(listed: ListedProfile, dateOfBirth: unknown, matching: unknown): boolean {
	const dates = (listed.profile.datesOfBirth as string[] | undefined) ?? [];
	if (typeof dateOfBirth !== 'string' || dates.length === 0) return true;
	const mode = typeof matching === 'string' ? matching : 'EXACT';
	const years = DOB_YEARS[mode];
	return dates.some((date) =>
		years === undefined
			? date === dateOfBirth
			: Math.abs(Number(date.slice(0, 4)) - Number(dateOfBirth.slice(0, 4))) <= years,
	);
}

/** The search result of one profile for a check (`IndividualSearchResult` / `BusinessSearchResult`). */
function hitOf(listed: ListedProfile, match: string, score: number, datasets: string[]): Json {
	const p = listed.profile;
	const addresses = (p.addresses as Json[]).map((a) => ({ geography: a.country, city: a.city }));
	const sanctions = (p.sanEntries as { current: Json[] }).current;
	const hit: Json = {
		version: p.version,
		resourceId: p.resourceId,
		score,
		match,
		name: listed.userType === 'PERSON' ? `${p.firstName} ${p.lastName}` : p.name,
		addresses,
		datasets,
		currentSanBodyIds: sanctions.map((s) => (s.regime as Json).bodyId),
		formerSanBodyIds: [],
	};
	if (listed.userType === 'COMPANY') return hit;
	const pepTier = (p.pepEntries as Json).pepTier;
	return {
		...hit,
		nationalities: p.nationalities,
		datesOfBirth: p.datesOfBirth,
		gender: p.gender,
		profileImage: (p.profileImages as string[])[0],
		...(pepTier ? { pepTier } : {}),
	};
}

/** What a check of the lists finds: the hits (best first) and the adverse media of their names. */
function screen(request: AmlCheckRequest): { hits: Json[]; adverseMedia: Json[] } {
	const name = request.userType === 'PERSON' ? request.input.fullName : request.input.companyName;
	const threshold = request.filter.threshold ?? 85;
	const dateOfBirth = request.userType === 'PERSON' ? request.input.dateOfBirth : undefined;
	const matching = request.userType === 'PERSON' ? request.filter.dateOfBirthMatching : undefined;
	const hits: Json[] = [];
	const adverseMedia: Json[] = [];
	for (const listed of LISTED.filter((l) => l.userType === request.userType)) {
		const [best] = listed.names
			.map((listedName) => ({ listedName, score: nameScore(name, listedName) }))
			.sort((a, b) => b.score - a.score);
		if (best.score < threshold) continue;
		adverseMedia.push(...(listed.adverseMedia ?? []));
		const datasets = (listed.profile.datasets as string[]).filter((d) =>
			(request.filter.datasets as string[]).includes(d),
		);
		if (datasets.length === 0 || !birthMatches(listed, dateOfBirth, matching)) continue;
		hits.push(hitOf(listed, best.listedName, best.score, datasets));
	}
	hits.sort((a, b) => (b.score as number) - (a.score as number));
	return { hits, adverseMedia };
}

/** A check as the service answers it (`PersonAmlCheck` / `CompanyAmlCheck`). */
export type AmlCheck = Json & { id: string; amlCheck: Json[]; adverseMedia: Json[] };

/** The filter a check keeps: the request's, with the provider's defaults for what it left out. */
function filterOf(request: AmlCheckRequest): Json {
	const filter: Json = {
		threshold: request.filter.threshold ?? 85,
		datasets: request.filter.datasets,
		sanctionBodies: request.filter.sanctionBodies ?? null,
	};
	if (request.userType === 'COMPANY') return filter;
	return {
		...filter,
		dateOfBirthMatching: request.filter.dateOfBirthMatching ?? 'EXACT',
		pepTiers: request.filter.pepTiers ?? null,
	};
}

/**
 * The check of a subject against every dataset of its type, as a monitoring's daily screening runs
 * it (the provider's defaults for the rest of the filter).
 */
export function wholeListCheck(subject: {
	clientId: string;
	userType: 'PERSON' | 'COMPANY';
	input: Record<string, unknown>;
}): AmlCheckRequest {
	const datasets = subject.userType === 'PERSON' ? AML_PERSON_DATASETS : AML_COMPANY_DATASETS;
	return amlCheckRequestSchema.parse({ ...subject, filter: { datasets } });
}

/** Runs a check: its hits, adverse media and overall status, as the service answers it. */
export function runCheck(request: AmlCheckRequest, monitoring: Json | null = null): AmlCheck {
	const { hits, adverseMedia } = screen(request);
	const now = new Date().toISOString();
	return {
		id: randomUUID(),
		clientId: request.clientId,
		checkedAt: now,
		created: now,
		userType: request.userType,
		input: request.input,
		filter: filterOf(request),
		amlCheck: hits,
		adverseMedia,
		overallStatus: hits.length + adverseMedia.length > 0 ? 'FLAGS_FOUND' : 'NO_FLAGS',
		monitoring,
	};
}

/** The PDF of a check or a monitoring: who, the verdict, each hit (also used by monitorings). */
export function checkPdfLines(check: AmlCheck): string[] {
	const input = check.input as Json;
	const hits = check.amlCheck.map(
		(hit) => `Hit: ${String(hit.name)} (${String(hit.resourceId)}), score ${String(hit.score)}`,
	);
	return [
		`AML check: ${check.id}`,
		`Subject: ${String(input.fullName ?? input.companyName)} (client ${String(check.clientId)})`,
		`Overall status: ${String(check.overallStatus)}`,
		...(hits.length > 0 ? hits : ['No profile matched.']),
		`Adverse media articles: ${check.adverseMedia.length}`,
		'Generated by the identity verification sandbox (test data).',
	];
}

/** A PDF report as the service answers it: `application/pdf`, streamed. */
export function pdfReply(
	fileName: string,
	title: string,
	lines: string[],
	sizeBytes?: number,
): Reply {
	const pdf = buildPdf({ title, lines, sizeBytes });
	return {
		status: 200,
		headers: {
			'Content-Type': 'application/pdf',
			'Content-Length': String(pdf.size),
			'Content-Disposition': `attachment; filename="${fileName.replace(/[^\w.-]/g, '_')}.pdf"`,
		},
		stream: pdf.stream(),
	};
}
