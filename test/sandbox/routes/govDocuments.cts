/**
 * Registry documents (kyb.yaml's GOV Orders): what a company's registry offers
 * (`available-documents/`, for the registration number of a sandbox company), an order of one
 * (`document-order/`, 200 with no body: the order starts IN_PROGRESS), the orders (`GET`, a list,
 * not a page) and one order, whose `file` links the document once it was delivered (the admin
 * API's `deliverGovOrder`, which also sends GOV_ORDERED_DOCUMENT). The linked file is public, as
 * the service's storage links are.
 */
import { randomUUID } from 'node:crypto';

import {
	govAvailableDocumentsParamsSchema,
	govDocumentOrderRequestSchema,
	govOrderedDocumentParamsSchema,
	govOrderedDocumentsParamsSchema,
} from '../../../nodes/shared/contract';
import type { SandboxCore } from '../core.cjs';
import { bodyObject, errorBody, HttpError, json, notFound, parseOr400 } from '../http.cjs';
import type { Req } from '../http.cjs';
import { buildPdf } from '../pdf.cjs';
import type { Route } from '../router.cjs';

/** What every sandbox registry offers (kyb.yaml's GovRegistersFilingResult, the fields it needs). */
const PRODUCTS = [
	{ key: 'REGISTER_EXTRACT', title: 'Extract from the Register of Legal Entities', price: 450 },
	{ key: 'HISTORIC_EXTRACT', title: 'Historic extract (changes of officers)', price: 900 },
];

interface GovOrder {
	id: string;
	title: string;
	productKey: string;
	companyName: string;
	orderTime: string;
	expectedDeliveryTime: string;
	price: number;
	status: 'IN_PROGRESS' | 'FINISHED';
	deliveredAt: string | null;
}

/** The orders of the account, oldest first. */
export class GovOrderStore {
	private orders = new Map<string, GovOrder>();

	reset(): void {
		this.orders.clear();
	}

	/** An order of a product the registry offers (else the service's 400). */
	order(productKey: string, companyName: string): GovOrder {
		const product = PRODUCTS.find((p) => p.key === productKey);
		if (!product)
			throw new HttpError(400, errorBody('BAD_VALUE', 'Field productKey: no such product.'));
		const now = Date.now();
		const record: GovOrder = {
			id: randomUUID(),
			title: product.title,
			productKey,
			companyName,
			orderTime: new Date(now).toISOString(),
			expectedDeliveryTime: new Date(now + 3_600_000).toISOString(),
			price: product.price / 100,
			status: 'IN_PROGRESS',
			deliveredAt: null,
		};
		this.orders.set(record.id, record);
		return record;
	}

	list(): GovOrder[] {
		return [...this.orders.values()];
	}

	found(id: string): GovOrder {
		const record = this.orders.get(id);
		if (!record) throw notFound('No ordered document with this id.');
		return record;
	}

	/** The registry delivered the document: FINISHED, with its file. */
	deliver(id: string): GovOrder {
		const record = this.found(id);
		record.status = 'FINISHED';
		record.deliveredAt = new Date().toISOString();
		return record;
	}
}

/** An order as the service answers it (kyb.yaml's GovPartnerOrderedDocument). */
export function govOrderBody(record: GovOrder, origin: string): Record<string, unknown> {
	const delivered = record.status === 'FINISHED';
	return {
		id: record.id,
		title: record.title,
		documentFormat: 'pdf',
		productKey: record.productKey,
		expectedDeliveryTime: record.expectedDeliveryTime,
		price: record.price,
		deliveredAt: record.deliveredAt,
		status: record.status,
		file: delivered ? `${origin}/gov-files/${record.id}.pdf` : null,
	};
}

/** The query of a GET as an object of its given parameters. */
const queryOf = (req: Req) => Object.fromEntries(req.query.entries());

/** The registry's products for a company the sandbox knows by its registration number (else 404). */
function availableDocuments(req: Req, core: SandboxCore) {
	const { countryCode, registrationNumber } = parseOr400(
		govAvailableDocumentsParamsSchema,
		queryOf(req),
	);
	const company = core.kybCompanies.list(registrationNumber)[0];
	if (!company) throw notFound('Company not found in the registry.');
	return {
		products: PRODUCTS.map((product) => ({
			id: product.key,
			productCode: product.key,
			price: product.price,
			productFormat: 'PDF',
			productTitle: product.title,
			deliveryTimeMinutes: 60,
			companyName: company.info.companyName,
			countryISO: countryCode,
			currency: 'EUR',
			companyCode: registrationNumber,
			canOrder: true,
		})),
	};
}

export const govDocumentRoutes: Route[] = [
	{
		method: 'GET',
		pattern: '/api/v2/gov-ordered-documents/available-documents/',
		auth: 'basic',
		handler: (req, core) => json(200, availableDocuments(req, core)),
	},
	{
		method: 'POST',
		pattern: '/api/v2/gov-ordered-documents/document-order/',
		auth: 'basic',
		handler: (req, core) => {
			const request = parseOr400(govDocumentOrderRequestSchema, bodyObject(req));
			core.govOrders.order(request.productKey, request.companyName);
			return { status: 200 };
		},
	},
	{
		method: 'GET',
		pattern: '/api/v2/gov-ordered-documents/',
		auth: 'basic',
		handler: (req, core) => {
			const { status, title } = parseOr400(govOrderedDocumentsParamsSchema, queryOf(req));
			const orders = core.govOrders
				.list()
				.filter(
					(o) => (status === undefined || o.status === status) && (!title || o.title === title),
				);
			// kyb.yaml's orderBy: `-orderTime` lists the newest orders first (the store keeps them oldest first).
			if (req.query.get('orderBy') === '-orderTime') orders.reverse();
			return json(
				200,
				orders.map((o) => govOrderBody(o, req.origin)),
			);
		},
	},
	{
		method: 'GET',
		pattern: '/api/v2/gov-ordered-documents/:id/',
		auth: 'basic',
		handler: (req, core) => {
			const { documentId } = parseOr400(govOrderedDocumentParamsSchema, {
				documentId: req.params.id,
			});
			return json(200, govOrderBody(core.govOrders.found(documentId), req.origin));
		},
	},
	{
		method: 'GET',
		pattern: '/gov-files/:file',
		auth: 'public',
		handler: (req, core) => {
			const record = core.govOrders.found(req.params.file.replace(/\.pdf$/, ''));
			if (record.status !== 'FINISHED') throw notFound();
			const pdf = buildPdf({
				title: record.title,
				lines: [`Company: ${record.companyName}`, `Order: ${record.id}`, 'Sandbox test data.'],
				sizeBytes: core.fileSizes.get(record.id),
			});
			return {
				status: 200,
				headers: { 'Content-Type': 'application/pdf', 'Content-Length': String(pdf.size) },
				stream: pdf.stream(),
			};
		},
	},
];
