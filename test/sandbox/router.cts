/** Path patterns like `/bank/tokens/` or `/kyb/forms/:id/submit/`, matched with or without the trailing slash. */
import type { Reply, Req } from './http.cjs';
import type { SandboxCore } from './core.cjs';

/** `public`: no credentials (the verification page the end user's browser opens). */
type AuthKind = 'basic' | 'basicOrBearer' | 'public';

export interface Route {
	method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
	pattern: string;
	auth: AuthKind;
	handler: (req: Req, core: SandboxCore) => Reply | Promise<Reply>;
}

interface CompiledRoute extends Route {
	regex: RegExp;
	names: string[];
}

export type Match =
	| { kind: 'route'; route: Route; params: Record<string, string> }
	| { kind: 'method-not-allowed'; allowed: string[]; auth: AuthKind }
	| { kind: 'none' };

export class Router {
	private readonly routes: CompiledRoute[];

	constructor(routes: Route[]) {
		this.routes = routes.map((route) => {
			const names: string[] = [];
			const body = route.pattern
				.replace(/\/$/, '')
				.split('/')
				.map((segment) => {
					if (!segment.startsWith(':')) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
					names.push(segment.slice(1));
					return '([^/]+)';
				})
				.join('/');
			return { ...route, names, regex: new RegExp(`^${body}/?$`) };
		});
	}

	match(method: string, path: string): Match {
		const allowed: string[] = [];
		let auth: AuthKind = 'basic';
		for (const route of this.routes) {
			const m = route.regex.exec(path);
			if (!m) continue;
			if (route.method !== method) {
				allowed.push(route.method);
				auth = route.auth;
				continue;
			}
			const params: Record<string, string> = {};
			route.names.forEach((name, i) => {
				let value = m[i + 1];
				try {
					value = decodeURIComponent(value);
				} catch {
					// keep the raw segment: it simply will not be found
				}
				params[name] = value;
			});
			return { kind: 'route', route, params };
		}
		return allowed.length ? { kind: 'method-not-allowed', allowed, auth } : { kind: 'none' };
	}

	/** Whether a path belongs to a route that accepts the KYB form token. */
	acceptsBearer(path: string): boolean {
		return this.routes.some((r) => r.auth === 'basicOrBearer' && r.regex.test(path));
	}
}
