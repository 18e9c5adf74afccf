/** POST /api/v2/poa-checks/: detects the file type from its bytes and compares name/address with the seed. */
import { randomUUID } from 'node:crypto';
import { poaCheckRequestSchema } from '../../../nodes/shared/contract';
import type { PoaFileType } from '../../../nodes/shared/contract';
import { bodyObject, json, parseOr400, validationFailed } from '../http.cjs';
import type { Route } from '../router.cjs';
import { SEED } from '../seed.cjs';

const HEIC_BRANDS = ['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'hevm', 'hevs'];
const HEIF_BRANDS = ['mif1', 'msf1', 'mif2', 'heif'];

/** The file type from magic bytes (jpg is jpeg; heic/heif from the ISO-BMFF `ftyp` brands). */
function detectFileType(bytes: Buffer): PoaFileType | undefined {
	if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff)
		return 'jpeg';
	if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
		return 'png';
	if (
		bytes.subarray(0, 4).toString('latin1') === 'RIFF' &&
		bytes.subarray(8, 12).toString('latin1') === 'WEBP'
	)
		return 'webp';
	if (bytes.subarray(0, 5).toString('latin1') === '%PDF-') return 'pdf';
	if (bytes.length >= 16 && bytes.subarray(4, 8).toString('latin1') === 'ftyp') {
		const boxSize = Math.min(bytes.readUInt32BE(0), bytes.length);
		const brands = [bytes.subarray(8, 12).toString('latin1')];
		for (let at = 16; at + 4 <= boxSize; at += 4)
			brands.push(bytes.subarray(at, at + 4).toString('latin1'));
		if (brands.some((b) => HEIC_BRANDS.includes(b))) return 'heic';
		if (brands.some((b) => HEIF_BRANDS.includes(b))) return 'heif';
	}
	return undefined;
}

/** Case, accents, punctuation and whitespace do not count. */
function normalise(text: string): string {
	return text
		.normalize('NFKD')
		.replace(/\p{M}/gu, '')
		.toLowerCase()
		.replace(/[^\p{L}\p{N}]+/gu, ' ')
		.trim();
}

/** Names also match with the words in another order ("Jonaitis Jonas"). */
const nameKey = (name: string) => normalise(name).split(' ').sort().join(' ');

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

export const poaRoutes: Route[] = [
	{
		method: 'POST',
		pattern: '/api/v2/poa-checks/',
		auth: 'basic',
		handler: (req) => {
			const body = parseOr400(poaCheckRequestSchema, bodyObject(req));
			const base64 = body.file.replace(/\s+/g, '');
			if (!BASE64.test(base64)) {
				throw validationFailed({
					file: ['must be base64 text of a jpeg, png, webp, heic, heif or pdf file'],
				});
			}
			const bytes = Buffer.from(base64, 'base64');
			const type = detectFileType(bytes);
			if (!type) {
				throw validationFailed({
					file: [
						'unsupported file type: the content must be a jpeg, jpg, png, webp, heic, heif or pdf file',
					],
				});
			}
			// What was not provided is not compared (null), as the service's NOT_COMPARED says.
			const nameMatch =
				body.providedName === undefined
					? null
					: nameKey(body.providedName) === nameKey(SEED.poa.name);
			const addressMatch =
				body.providedAddress === undefined
					? null
					: normalise(body.providedAddress) === normalise(SEED.poa.address);
			const id = randomUUID();
			const issued = new Date(Date.now() - 20 * 86400000).toISOString().slice(0, 10);
			return json(201, {
				// The uploaded document echoed back in base64, as the contract's answer shows.
				file: base64,
				id,
				created: new Date().toISOString(),
				issueDate: issued,
				documentType: 'UTILITY_BILL',
				country: 'LT',
				hasLogo: true,
				isScreenshot: false,
				nameMatch,
				addressMatch,
				dateValid: true,
				overallStatus:
					nameMatch === null && addressMatch === null
						? 'NOT_COMPARED'
						: nameMatch !== false && addressMatch !== false
							? 'MATCH'
							: 'NO_MATCH',
				name: SEED.poa.name,
				address: SEED.poa.address,
				orgName: 'Energijos skirstymo operatorius AB',
				orgAddress: 'Aguonų g. 24, 03212 Vilnius, Lithuania',
				documentTypeSupported: true,
				countrySupported: true,
				providedName: body.providedName ?? null,
				providedAddress: body.providedAddress ?? null,
			});
		},
	},
];
