/** The `/__sandbox/*` HTTP control API: the in-process controls for other processes (demo, e2e, bench). */
import type { SandboxCore } from './core.cjs';
import { bodyObject, HttpError, json } from './http.cjs';
import type { Reply, Req } from './http.cjs';
import { ADMIN_PREFIX } from './server.cjs';
import { SEED } from './seed.cjs';
import type { FaultRule, PageLinkMode } from './types.cjs';

const bad = (detail: string) => new HttpError(400, { detail });

function timesOf(value: unknown): number | undefined {
	if (value === undefined || value === null) return undefined;
	if (value === 'Infinity' || value === -1 || value === 'always') return Infinity;
	return Number(value);
}

function guard<T>(fn: () => T): T {
	try {
		return fn();
	} catch (error) {
		if (error instanceof HttpError) throw error;
		throw bad((error as Error).message);
	}
}

export async function handleAdmin(core: SandboxCore, req: Req): Promise<Reply> {
	const path = req.path.slice(ADMIN_PREFIX.length).replace(/\/+$/, '') || '/';
	const route = `${req.method} ${path}`;
	const body = () => bodyObject(req);

	switch (route) {
		case 'GET /':
			return json(200, { url: core.url, credentials: core.credentials, seed: SEED });
		case 'POST /reset':
			core.reset();
			return json(200, { ok: true });
		case 'GET /requests': {
			const method = req.query.get('method')?.toUpperCase();
			const prefix = req.query.get('path');
			return json(
				200,
				core.requests.filter((r) => (!method || r.method === method) && (!prefix || r.path.startsWith(prefix))),
			);
		}
		case 'GET /requests/count':
			return json(200, {
				count: core.count({ method: req.query.get('method') ?? undefined, path: req.query.get('path') ?? undefined }),
			});
		case 'DELETE /requests':
			core.resetLog();
			return { status: 204 };
		case 'GET /faults':
			return json(200, core.listFaults().map((f) => ({ ...f, times: f.times === Infinity ? 'Infinity' : f.times })));
		case 'POST /faults': {
			const rule = body() as FaultRule;
			guard(() => core.addFault({ ...rule, times: timesOf(rule.times) }));
			return json(201, { ok: true });
		}
		case 'DELETE /faults':
			core.clearFaults();
			return { status: 204 };
		case 'POST /latency':
			core.latencyMs = Math.max(0, Number(body().ms) || 0);
			return json(200, { latencyMs: core.latencyMs });
		case 'POST /bank/accounts': {
			const b = body();
			const ids = guard(() =>
				core.bank.seedAccount({
					transactions: Number(b.transactions),
					verificationId: b.verificationId as string | undefined,
					accountId: b.accountId as string | undefined,
				}),
			);
			return json(201, ids);
		}
		case 'POST /bank/page-links': {
			const b = body();
			guard(() => core.bank.setPageLinks(b.mode as PageLinkMode, b.crossHostUrl as string | undefined));
			return json(200, { mode: core.bank.mode, crossHostUrl: core.bank.crossHostUrl });
		}
	}
	throw new HttpError(404, { detail: `No admin route ${route}. See test/sandbox/README.md.` });
}
