// `npm run screenshots`: the README's pictures, into docs/images. The steps are the package's
// (test/browser/screenshots.cts, which the editor e2e test runs into a temporary folder), on the demo
// stack: the sandbox and the pinned n8n with the example workflows, those the demo runs published.
import path from 'node:path';
import { launchBrowser, openEditor } from '../test/browser/editor.cjs';
import {
	connectDemoWorkflows,
	screenshotStackOptions,
	takeScreenshots,
} from '../test/browser/screenshots.cjs';
import { ROOT } from '../test/n8n/runtime.cjs';
import { startStack } from '../test/n8n/stack.cjs';

const IMAGES_DIR = path.join(ROOT, 'docs', 'images');

async function main(): Promise<number> {
	const browser = await launchBrowser();
	const stack = await startStack({
		...screenshotStackOptions(),
		log: (m) => console.log(`[screenshots] ${m}`),
	});
	try {
		await connectDemoWorkflows(stack);
		const editor = await openEditor(browser, stack.n8n.url, stack.owner);
		const pictures = await takeScreenshots(stack, editor, IMAGES_DIR);
		for (const p of pictures) console.log(`  docs/images/${p.file}: ${p.shows}`);
		return 0;
	} finally {
		await browser.close();
		await stack.stop();
	}
}

main().then(
	(code) => process.exit(code),
	(error) => {
		console.error(`[screenshots] ${error instanceof Error ? error.message : error}`);
		process.exit(1);
	},
);
