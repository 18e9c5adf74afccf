/** AML Monitoring → Download PDF: the monitoring's history as a PDF, with or without a password. */
import { monitoring as op, testMonitoringId, useAmlSandbox } from '../aml-util.cjs';

const ctx = useAmlSandbox();

describe('AML Monitoring: Download PDF', () => {
	test('Download PDF: with or without a password, into the field chosen', async () => {
		const id = ctx.seed();
		for (const password of ['', 'secret']) {
			const { items, error } = await ctx.run(
				op('downloadPdf', { monitoringId: id, password, binaryPropertyName: 'history' }),
			);
			expect(error).toBeUndefined();
			expect(items[0].json).toMatchObject({
				monitoringId: id,
				fileName: `aml-monitoring-${id}.pdf`,
				mimeType: 'application/pdf',
			});
			expect(items[0].binary?.history?.mimeType).toBe('application/pdf');
		}
	});

	testMonitoringId(ctx, 'downloadPdf');
});
