/**
 * What every product area of the contract shares: the limits, the country codes, the building
 * blocks of the request schemas, and the wording of a failed check.
 */
import { z } from 'zod';

export const LIMITS = {
	bankTokenLifetime: { min: 0, max: 2592000, default: 3600 },
	bankNameMaxLength: 32,
	partyFullNameMaxLength: 128,
	bankAccountNameMaxLength: 128,
	ibanMaxLength: 34,
	currencyMaxLength: 3,
	amountPattern: /^-?\d{0,14}(?:\.\d{0,2})?$/,
	amlPdfPasswordMinLength: 1,
	/** The contract states 255 for two string fields of the POA check without naming them; the
	 * only two free-text fields of the request are the provided name and address. */
	poaTextMaxLength: 255,
	webhookTimeoutSeconds: 10,
	clientIdMaxLength: 100,
	externalRefMaxLength: 40,
	personNameMaxLength: 100,
	localeMaxLength: 7,
	tokenExpiryTime: { min: 0, max: 2592000 },
	tokenSessionLength: { min: 60, max: 3600 },
} as const;

/** The codes of a list written as space-separated text (a few lines, not one code per line). */
function codeList(text: string): [string, ...string[]] {
	const [first, ...rest] = text.trim().split(/\s+/);
	return [first, ...rest];
}

/** The 250 country codes of the contract (ISO 3166-1 alpha-2 style, plus XK for Kosovo). */
const COUNTRIES = codeList(`
	AF AX AL DZ AS AD AO AI AQ AG AR AM AW AU AT AZ BS BH BD BB BY BE BZ BJ BM BT BO BQ BA BW
	BV BR IO BN BG BF BI CV KH CM CA KY CF TD CL CN CX CC CO KM CG CK CR CI HR CU CW CY CZ CD
	DK DJ DM DO EC EG SV GQ ER EE SZ ET FK FO FJ FI FR GF PF TF GA GM GE DE GH GI GR GL GD GP
	GU GT GG GN GW GY HT HM HN HK HU IS IN ID IR IQ IE IM IL IT JM JP JE JO KZ KE KI XK KW KG
	LA LV LB LS LR LY LI LT LU MO MG MW MY MV ML MT MH MQ MR MU YT MX FM MD MC MN ME MS MA MZ
	MM NA NR NP NL NC NZ NI NE NG NU NF KP MK MP NO OM PK PW PS PA PG PY PE PH PN PL PT PR QA
	RE RO RU RW BL SH KN LC MF PM VC WS SM ST SA SN RS SC SL SG SX SK SI SB SO ZA GS KR SS ES
	LK SD SR SJ SE CH SY TW TJ TZ TH TL TG TK TO TT TN TR TM TC TV UG UA AE GB UM US UY UZ VU
	VA VE VN VG VI WF EH YE ZM ZW
`);

export const countrySchema = z.enum(COUNTRIES, {
	errorMap: () => ({
		message: 'must be a two-letter country code from the contract (ISO 3166-1 alpha-2 or XK)',
	}),
});

export const nonEmpty = (what: string) =>
	z
		.string()
		.trim()
		.min(1, { message: `${what} must not be empty` });

/**
 * An id that goes into a URL path. Only dots ("." or "..") would be resolved by the HTTP client as
 * "this folder" or "the folder above" and send the request to another endpoint (ids may come from
 * an AI agent), so they are refused.
 */
export const pathId = (what: string) =>
	nonEmpty(what).refine((value) => !/^\.+$/.test(value), {
		message: `${what} must not be only dots ("." or ".."): they would change the address of the request`,
	});

export const uuidSchema = z
	.string()
	.trim()
	.uuid({ message: 'must be a UUID such as 5f0b6f5e-8f4a-4b8e-9a51-2f1f1f9c2a10' });

/** A duration in whole seconds within [min, max]; `hint` says the maximum in words (e.g. 30 days). */
export const wholeSeconds = (min: number, max: number, hint: string) =>
	z
		.number({ invalid_type_error: 'must be a whole number of seconds' })
		.int({ message: 'must be a whole number of seconds' })
		.min(min, { message: `must be at least ${min} seconds` })
		.max(max, { message: `must be at most ${max} seconds (${hint})` });

/** A failed check in words a user can act on; `path` is the field's dotted path (`access.accounts`). */
export const contractIssueSchema = z.object({ path: z.string(), message: z.string() });
export type ContractIssue = z.infer<typeof contractIssueSchema>;

export function describeIssues(error: z.ZodError): ContractIssue[] {
	return error.issues.map((issue) => ({
		path: issue.path.join('.'),
		message: issue.message,
	}));
}
