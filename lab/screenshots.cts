// `npm run screenshots`: the README's pictures, into docs/images; with `--first-hour [<folder>]` the
// first-hour pictures (test/browser/firstHour.cts), into docs/images/first-hour by default. The steps
// are the package's (test/browser/, which the editor e2e test runs into a temporary folder), on the
// demo stack: the sandbox and the pinned n8n with the example workflows, those the demo runs published.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { launchBrowser, openEditor } from '../test/browser/editor.cjs';
import {
	connectDemoWorkflows,
	screenshotStackOptions,
	takeScreenshots,
} from '../test/browser/screenshots.cjs';
import { takeFirstHourPictures } from '../test/browser/firstHour.cjs';
import { ROOT } from '../test/n8n/runtime.cjs';
import { startStack } from '../test/n8n/stack.cjs';

const IMAGES_DIR = path.join(ROOT, 'docs', 'images');
const FIRST_HOUR_DIR = path.join(IMAGES_DIR, 'first-hour');

/** The folder of `--first-hour [<folder>]`, or undefined for the README's pictures. */
function firstHourFolder(args: string[]): string | undefined {
	const at = args.indexOf('--first-hour');
	if (at < 0) return undefined;
	const folder = args[at + 1];
	return path.resolve(ROOT, folder && !folder.startsWith('--') ? folder : FIRST_HOUR_DIR);
}

async function main(args: string[]): Promise<number> {
	const firstHour = firstHourFolder(args);
	const browser = await launchBrowser();
	const stack = await startStack({
		...screenshotStackOptions(),
		log: (m) => console.log(`[screenshots] ${m}`),
	});
	try {
		await connectDemoWorkflows(stack);
		const editor = await openEditor(browser, stack.n8n.url, stack.owner);
		if (firstHour !== undefined) {
			mkdirSync(firstHour, { recursive: true });
			const pictures = await takeFirstHourPictures(stack, editor, firstHour);
			for (const p of pictures)
				console.log(`  ${path.relative(ROOT, path.join(firstHour, p.file))}: ${p.shows}`);
			return 0;
		}
		const pictures = await takeScreenshots(stack, editor, IMAGES_DIR);
		for (const p of pictures) console.log(`  docs/images/${p.file}: ${p.shows}`);
		return 0;
	} finally {
		await browser.close();
		await stack.stop();
	}
}

main(process.argv.slice(2)).then(
	(code) => process.exit(code),
	(error) => {
		console.error(`[screenshots] ${error instanceof Error ? error.message : error}`);
		process.exit(1);
	},
);
