/** The sandbox's state: credentials, request log, faults and the per-area stores. */
import { BankStore } from './routes/bank.cjs';
import type { FaultRule, RequestLogEntry, SandboxCredentials } from './types.cjs';

interface ActiveFault extends FaultRule {
	remaining: number;
}

export class SandboxCore {
	url = '';
	readonly requests: RequestLogEntry[] = [];
	private faultRules: ActiveFault[] = [];
	latencyMs = 0;
	readonly bank = new BankStore();

	constructor(readonly credentials: SandboxCredentials) {}

	addFault(rule: FaultRule): void {
		const times = rule.times === undefined || rule.times === null ? 1 : Number(rule.times);
		if (!(times > 0)) throw new Error('times must be > 0 (Infinity for always)');
		if (rule.status === undefined && !rule.drop && rule.latencyMs === undefined) {
			throw new Error('a fault needs status, drop or latencyMs');
		}
		this.faultRules.push({ ...rule, method: rule.method?.toUpperCase(), remaining: times });
	}

	clearFaults(): void {
		this.faultRules = [];
		this.latencyMs = 0;
	}

	listFaults(): FaultRule[] {
		return this.faultRules.map(({ remaining, ...rule }) => ({ ...rule, times: remaining }));
	}

	/** The first rule matching the request (its use is counted), if any. */
	takeFault(method: string, path: string): FaultRule | undefined {
		const rule = this.faultRules.find(
			(r) => r.remaining > 0 && (!r.method || r.method === method) && (!r.path || path.startsWith(r.path)),
		);
		if (!rule) return undefined;
		rule.remaining -= 1;
		if (rule.remaining <= 0) this.faultRules = this.faultRules.filter((r) => r !== rule);
		return rule;
	}

	count(filter: { method?: string; path?: string } = {}): number {
		const method = filter.method?.toUpperCase();
		return this.requests.filter((r) => (!method || r.method === method) && (!filter.path || r.path.startsWith(filter.path)))
			.length;
	}

	resetLog(): void {
		this.requests.length = 0;
	}

	/** Stops background work (pending webhook retries) before the server closes. */
	async shutdown(): Promise<void> {}

	reset(): void {
		this.resetLog();
		this.clearFaults();
		this.bank.reset();
	}
}
