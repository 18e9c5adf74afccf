/**
 * Gives a chunk's memory back at once instead of when the garbage collector gets to it. Until a
 * collection, every chunk already read is still held: as many bytes again as the file or answer
 * that went through. Only a chunk that is the sole view of its memory is given back, never a slice
 * of a shared pool or of a larger buffer. Where the runtime cannot (no
 * `ArrayBuffer.prototype.transfer` before Node 21), nothing changes.
 */
export function releaseMemory(piece: Uint8Array): void {
	const memory = piece.buffer as ArrayBuffer & { transfer?: (length: number) => ArrayBuffer };
	// As long as its memory, the chunk starts where its memory does: nothing else is in it.
	if (piece.byteLength !== memory.byteLength || piece.byteLength === 0) return;
	if (typeof memory.transfer !== 'function') return;
	try {
		memory.transfer(0);
	} catch {
		// Memory that cannot be detached is left to the garbage collector.
	}
}

/**
 * The chunks of a stream that is the caller's alone, each given back as soon as the reader asks for
 * the next one: a reader that keeps no chunk (or slice of one) past that point.
 */
export async function* releasedOnceRead(
	chunks: AsyncIterable<Uint8Array>,
): AsyncGenerator<Uint8Array> {
	for await (const chunk of chunks) {
		yield chunk;
		releaseMemory(chunk);
	}
}
