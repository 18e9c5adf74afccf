/** POST /api/v2/token and POST /kyc/identifications/{scanRef}/request-information/. */
import { verificationTokenRequestSchema } from '../../../nodes/shared/contract';
import { bodyObject, json, parseOr400 } from '../http.cjs';
import type { Route } from '../router.cjs';

/** Seconds; used when the request does not set them (the contract does not show the defaults). */
const DEFAULT_EXPIRY_TIME = 3600;
const DEFAULT_SESSION_LENGTH = 600;

export const kycRoutes: Route[] = [
	{
		method: 'POST',
		pattern: '/api/v2/token',
		auth: 'basic',
		handler: (req, core) => {
			const body = parseOr400(verificationTokenRequestSchema, bodyObject(req));
			const session = core.kyc.createSession(body.clientId, body);
			return json(201, {
				message: `Token for client-id '${body.clientId}' generated.`,
				...body,
				expiryTime: typeof body.expiryTime === 'number' ? body.expiryTime : DEFAULT_EXPIRY_TIME,
				sessionLength:
					typeof body.sessionLength === 'number' ? body.sessionLength : DEFAULT_SESSION_LENGTH,
				tokenType: typeof body.tokenType === 'string' ? body.tokenType : 'IDENTIFICATION',
				authToken: session.authToken,
				scanRef: session.scanRef,
				clientId: session.clientId,
				digitString: null,
			});
		},
	},
	{
		method: 'POST',
		pattern: '/kyc/identifications/:scanRef/request-information/',
		auth: 'basic',
		handler: (req, core) => {
			const session = core.kyc.requestInformation(req.params.scanRef);
			return json(200, {
				scanRef: session.scanRef,
				clientId: session.clientId,
				status: 'REQUESTED',
				message:
					'The verification token was reactivated and a re-upload link was e-mailed to the user.',
			});
		},
	},
];
