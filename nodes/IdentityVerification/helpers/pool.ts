/**
 * A small promise pool: runs `worker` over `inputs` with at most `maxConcurrency` calls in flight,
 * keeps results in input order, and lets a worker lower the concurrency (e.g. after a 429) without
 * ever going above the configured maximum. On the first failure no new work starts; the pool waits
 * for the calls in flight to settle and then rejects with that failure.
 */
export interface PoolControl {
	/** Halves the number of parallel calls (never below 1) for the rest of the run. */
	throttle(): void;
	/** Current number of parallel calls allowed. */
	readonly concurrency: number;
}

export async function mapWithConcurrency<T, R>(
	inputs: readonly T[],
	maxConcurrency: number,
	worker: (input: T, index: number, control: PoolControl) => Promise<R>,
): Promise<R[]> {
	const results: R[] = new Array<R>(inputs.length);
	if (inputs.length === 0) return results;
	let limit = Math.max(1, Math.floor(maxConcurrency));
	const control: PoolControl = {
		throttle() {
			limit = Math.max(1, Math.floor(limit / 2));
		},
		get concurrency() {
			return limit;
		},
	};

	return await new Promise<R[]>((resolve, reject) => {
		let nextIndex = 0;
		let active = 0;
		let failure: { error: unknown } | undefined;

		const pump = () => {
			if (failure) {
				if (active === 0) reject(failure.error);
				return;
			}
			while (active < limit && nextIndex < inputs.length) {
				const index = nextIndex++;
				active++;
				worker(inputs[index], index, control).then(
					(value) => {
						results[index] = value;
						active--;
						pump();
					},
					(error: unknown) => {
						failure ??= { error };
						active--;
						pump();
					},
				);
			}
			if (active === 0 && nextIndex >= inputs.length) resolve(results);
		};
		pump();
	});
}
