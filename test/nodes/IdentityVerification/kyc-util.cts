/**
 * What the tests of a verification's records share: the sandbox (util.cts) with a loopback receiver
 * for its webhooks (finishing a verification sends one), and verifications in a given state.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { useSandbox } from './util.cjs';
import type { Ctx } from './util.cjs';

export interface KycCtx extends Ctx {
	/** A verification of `clientId` the automated review finished with `overall` (APPROVED). */
	finished(clientId: string, overall?: string): Promise<string>;
}

/** useSandbox, and a receiver its webhooks go to (configured again after each reset). */
export function useKycSandbox(): KycCtx {
	const ctx = useSandbox() as KycCtx;
	let receiver: http.Server;
	let url = '';
	beforeAll(async () => {
		receiver = http.createServer((req, res) => {
			req.resume();
			req.on('end', () => res.writeHead(200).end());
		});
		await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
		url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhook`;
		ctx.finished = async (clientId, overall = 'APPROVED') => {
			const { scanRef } = ctx.sb.kyc.createSession(clientId);
			await ctx.sb.kyc.autoFinish(scanRef, { final: true, overall });
			return scanRef;
		};
	});
	beforeEach(() => {
		ctx.sb.webhooks.configure({ url, retryDelaysMs: [] });
	});
	afterAll(async () => {
		await new Promise<void>((resolve) => receiver.close(() => resolve()));
	});
	return ctx;
}
