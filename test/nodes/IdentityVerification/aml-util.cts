/**
 * What the tests of the AML operations share: the parameters of AML Check's operations, and for AML
 * Monitoring the sandbox (util.cts) with monitorings seeded in it and the checks several of its
 * operations make alike (the Monitoring ID, the comment of Start and Stop).
 */
import type { INodeParameters } from 'n8n-workflow';

import { expectError, expectPaired, serviceRequests, useSandbox } from './util.cjs';
import type { Ctx } from './util.cjs';

/** AML Check → Create for a person on the lists, with `extra`. */
export const createCheck = (extra: Record<string, unknown> = {}) => ({
	resource: 'aml',
	operation: 'create',
	clientId: 'customer-42',
	fullName: 'Aleksandr Volkov',
	...extra,
});

/** AML Check → Get Profile of the first hit of the item before (Create's output), with `extra`. */
export const getProfile = (extra: Record<string, unknown> = {}) => ({
	resource: 'aml',
	operation: 'getProfile',
	checkId: '={{ $json.checkId }}',
	profileId: '={{ $json.amlCheck[0].resourceId }}',
	...extra,
});

/** An AML Monitoring operation's parameters. */
export const monitoring = (operation: string, extra: INodeParameters = {}): INodeParameters => ({
	resource: 'amlMonitoring',
	operation,
	...extra,
});

/** A Monitoring ID the sandbox does not have. */
export const UNKNOWN = '00000000-0000-4000-8000-000000000000';

/** A person the lists flag (a PEP), and one they do not. */
const PEP = {
	userType: 'PERSON' as const,
	clientId: 'customer-7',
	input: { fullName: 'Łukasz Müller-Wiśniewski' },
};
export const CLEAN = {
	userType: 'PERSON' as const,
	clientId: 'customer-8',
	input: { fullName: 'Ona Petraitė' },
};

export interface AmlCtx extends Ctx {
	/** A monitoring of `amlCheck` (the PEP by default), not renewed, in the sandbox: its ID. */
	seed(amlCheck?: typeof PEP, expiration?: string): string;
}

/** useSandbox, with monitorings to seed. */
export function useAmlSandbox(): AmlCtx {
	const ctx = useSandbox() as AmlCtx;
	ctx.seed = (amlCheck = PEP, expiration) =>
		ctx.sb.aml.seedMonitoring({ isSubscribed: false, amlCheck }, { expiration }).monitoringId;
	return ctx;
}

/** The test that `operation` refuses a Monitoring ID that is not a UUID before sending anything. */
export function testMonitoringId(ctx: AmlCtx, operation: string): void {
	test(`${operation} refuses a Monitoring ID that is not a UUID before sending anything`, async () => {
		const result = await ctx.run(monitoring(operation, { monitoringId: 'monitoring-1' }));
		expectError(result, 'Monitoring ID:', 'must be a UUID');
		expect(serviceRequests(ctx.sb)).toBe(0);
	});
}

/**
 * The test that Start or Stop outputs the comment it sent, so the run shows what was kept: the
 * service keeps the comment but does not answer with it (writeOnly in its OpenAPI).
 */
export function testComment(ctx: AmlCtx, operation: 'start' | 'stop'): void {
	test(`${operation} outputs the comment it sent, so the run shows what was kept`, async () => {
		const id = ctx.seed();
		const comment = 'Customer offboarded: account closed on request';
		const { items, error } = await ctx.run(monitoring(operation, { monitoringId: id, comment }));
		expect(error).toBeUndefined();
		expectPaired(items);
		expect(items[0].json).toMatchObject({ monitoringId: id, comment });
		expect(Object.keys(items[0].json).slice(0, 2)).toEqual(['monitoringId', 'status']);
		const without = await ctx.run(monitoring(operation, { monitoringId: id }));
		expect(without.items[0].json).not.toHaveProperty('comment');
	});
}
