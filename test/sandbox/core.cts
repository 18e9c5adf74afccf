/** The sandbox's state: credentials, request log, faults and the per-area stores. */
import { Mailbox } from './mailbox.cjs';
import {
	companyInfoRequestBody,
	companyReviewBody,
	companySubmitBody,
	sampleBody,
} from './bodies.cjs';
import type { KybCompanyStatusRequest } from '../../nodes/shared/contract';
import { SEED } from './seed.cjs';
import { KycDriver } from './kyc.cjs';
import { AmlStore } from './routes/aml.cjs';
import { BankStore } from './routes/bank.cjs';
import { KybStore } from './routes/kyb.cjs';
import { GovOrderStore, govOrderBody } from './routes/govDocuments.cjs';
import { formSections, KybCompanyStore } from './routes/kybCompanies.cjs';
import type { CompanyInput } from './routes/kybCompanies.cjs';
import type {
	Delivery,
	FaultRule,
	KybDecision,
	RequestLogEntry,
	SandboxCredentials,
} from './types.cjs';
import { WebhookSender } from './webhooks.cjs';

interface ActiveFault extends FaultRule {
	remaining: number;
}

export class SandboxCore {
	url = '';
	readonly requests: RequestLogEntry[] = [];
	private faultRules: ActiveFault[] = [];
	latencyMs = 0;
	/** Sizes the files of an ID are padded to (setFileSize): a scanRef's report and photos, a PDF's ID. */
	readonly fileSizes = new Map<string, number>();
	readonly bank = new BankStore();
	readonly aml = new AmlStore();
	readonly kyb = new KybStore();
	readonly kybCompanies = new KybCompanyStore();
	readonly govOrders = new GovOrderStore();
	readonly webhooks: WebhookSender;
	readonly kyc: KycDriver;
	/** Mail the demo's e-mail steps send (startSandbox's `smtp`); the inbox page lists it. */
	readonly mailbox = new Mailbox();
	smtpPort: number | undefined;
	/** KYB session answers carry `formUrl`, the sandbox's own form page (startSandbox's `kybFormLinks`). */
	kybFormLinks = false;

	constructor(
		readonly credentials: SandboxCredentials,
		headerPrefix?: string,
	) {
		this.webhooks = new WebhookSender(credentials.signingKey, sampleBody, headerPrefix);
		this.kyc = new KycDriver(
			(eventType, body, to) => this.webhooks.send(eventType, body, to),
			() => this.webhooks.configured,
			() => this.webhooks.sendsLegacyIdentification,
			() => this.webhooks.describe()?.url,
		);
	}

	/**
	 * The manual review of a submitted KYB form decides: COMPANY_REVIEW with the company's body
	 * (`approvalStatus` APPROVED or DENIED), or COMPANY_INFO_REQUEST when more is asked for.
	 */
	async reviewKyb(formId: string, decision: KybDecision = 'APPROVED'): Promise<Delivery> {
		const form = this.kyb.review(formId, decision);
		const company = { companyId: form.companyId, clientId: form.clientId };
		if (decision === 'ADDITIONAL_INFO_REQUESTED') return this.requestKybInformation(company);
		const approvalStatus = decision === 'APPROVED' ? 'APPROVED' : 'DENIED';
		// The company (when it still exists) shows the decision, as after Set Review Decision.
		if (this.kybCompanies.company(form.companyId))
			this.kybCompanies.changeStatus(form.companyId, {
				status: 'COMPLETED',
				reviewInfo: { approvalStatus },
			});
		return this.webhooks.send('COMPANY_REVIEW', companyReviewBody({ ...company, approvalStatus }));
	}

	/**
	 * COMPANY_INFO_REQUEST: the reviewer asks the company for more; its token opens the company's
	 * form again on the sandbox's KYB form page (a random one when the sandbox has no such company).
	 */
	requestKybInformation(company: { companyId: string; clientId?: string }): Promise<Delivery> {
		const token = this.kybCompanies.company(company.companyId)
			? this.kybCompanies.reopenSession(company.companyId).tokenString
			: undefined;
		const body = companyInfoRequestBody({ ...company, token });
		return this.webhooks.send('COMPANY_INFO_REQUEST', body);
	}

	/**
	 * POST /kyb/forms/{id}/submit/: the form is locked for review and, when a webhook URL is
	 * configured, COMPANY_SUBMIT is sent (in the background: the answer does not wait for it).
	 */
	submitKyb(formId: string): void {
		const form = this.kyb.submit(formId);
		this.kybCompanies.submitForm(form.companyId);
		if (!this.webhooks.configured) return;
		const body = companySubmitBody({
			companyId: form.companyId,
			clientId: form.clientId,
			submissionTime: form.submittedAt ?? undefined,
		});
		this.webhooks.send('COMPANY_SUBMIT', body).catch(() => undefined);
	}

	/**
	 * The company opens the session's link, fills its form and submits it: the company is made with
	 * its form (the form's ID is the company's, as the service's), and COMPANY_SUBMIT is sent when a
	 * webhook URL is configured (resolving with its delivery).
	 */
	async submitKybSession(
		tokenString: string,
		input: CompanyInput = {},
	): Promise<{ companyId: string; delivery?: Delivery }> {
		const company = this.kybCompanies.submitSession(tokenString, input);
		const ids = { formId: company.id, companyId: company.id, clientId: company.clientId };
		const sections = formSections(company);
		this.kyb.seedForm({ ...ids, questionnaireId: SEED.kyb.questionnaireId, sections });
		this.kyb.submit(company.id);
		if (!this.webhooks.configured) return { companyId: company.id };
		const body = companySubmitBody({
			companyId: company.id,
			clientId: company.clientId,
			submissionTime: company.submissionTime ?? undefined,
			externalRef: company.externalRef,
		});
		return { companyId: company.id, delivery: await this.webhooks.send('COMPANY_SUBMIT', body) };
	}

	/**
	 * POST change-status: with COMPLETED the decision is the manual review's, and COMPANY_REVIEW is
	 * sent in the background when a webhook URL is configured ("the KYB review webhook is sent").
	 */
	decideKybCompany(id: string, request: KybCompanyStatusRequest) {
		const company = this.kybCompanies.changeStatus(id, request);
		if (company.status === 'COMPLETED' && this.webhooks.configured) {
			const body = companyReviewBody({
				companyId: company.id,
				companyName: company.info.companyName,
				clientId: company.clientId,
				approvalStatus: company.approvalStatus ?? undefined,
				denyReason: company.denyReason,
			});
			this.webhooks.send('COMPANY_REVIEW', body).catch(() => undefined);
		}
		return company;
	}

	/** A registry delivered an ordered document: its file is linked, and GOV_ORDERED_DOCUMENT is sent when configured. */
	deliverGovOrder(id: string): Record<string, unknown> {
		const body = govOrderBody(this.govOrders.deliver(id), this.url);
		if (this.webhooks.configured)
			this.webhooks.send('GOV_ORDERED_DOCUMENT', body).catch(() => undefined);
		return body;
	}

	/** DELETE: the company is gone, and COMPANY_DELETE is sent in the background when configured. */
	deleteKybCompany(id: string): void {
		const company = this.kybCompanies.delete(id);
		if (!this.webhooks.configured) return;
		const body = { date: new Date().toISOString(), manager: null, companyId: company.id };
		this.webhooks.send('COMPANY_DELETE', body).catch(() => undefined);
	}

	/** The daily screening of an AML monitoring, reported with AML_MONITORING. */
	async screenAmlMonitoring(monitoringId: string): Promise<Delivery> {
		const monitorings = this.aml.monitorings;
		const record = monitorings.screen(monitoringId);
		return this.webhooks.send('AML_MONITORING', monitorings.webhookBody(record));
	}

	/** AML_MONITORING_EXPIRATION: how many monitorings expire within 30 days, renewed or not. */
	async sendAmlExpiration(): Promise<Delivery> {
		return this.webhooks.send('AML_MONITORING_EXPIRATION', this.aml.monitorings.expiringCounts());
	}

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
	takeFault(method: string, path: string, query?: URLSearchParams): FaultRule | undefined {
		const rule = this.faultRules.find(
			(r) =>
				r.remaining > 0 &&
				(!r.method || r.method === method) &&
				(!r.path || path.startsWith(r.path)) &&
				Object.entries(r.query ?? {}).every(([name, value]) => query?.get(name) === String(value)),
		);
		if (!rule) return undefined;
		rule.remaining -= 1;
		if (rule.remaining <= 0) this.faultRules = this.faultRules.filter((r) => r !== rule);
		return rule;
	}

	count(filter: { method?: string; path?: string } = {}): number {
		const method = filter.method?.toUpperCase();
		return this.requests.filter(
			(r) => (!method || r.method === method) && (!filter.path || r.path.startsWith(filter.path)),
		).length;
	}

	resetLog(): void {
		this.requests.length = 0;
	}

	/** Stops background work (pending webhook retries) before the server closes. */
	async shutdown(): Promise<void> {
		await this.webhooks.close();
		await this.mailbox.close();
	}

	reset(): void {
		this.resetLog();
		this.clearFaults();
		this.fileSizes.clear();
		this.bank.reset();
		this.aml.reset();
		this.kyb.reset();
		this.kybCompanies.reset();
		this.govOrders.reset();
		this.kyc.reset();
		this.webhooks.reset();
	}
}
