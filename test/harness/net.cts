// Loopback ports for tests and the real-n8n runtime.
import { createServer } from 'node:net';

/**
 * A free loopback port. Picked at random below Linux's ephemeral range (32768+), where the ports
 * that port-0 servers and outgoing connections get are drawn: on a busy machine (parallel test
 * runs) a port-0 pick can be taken again before n8n binds it.
 */
export async function freePort(): Promise<number> {
	for (let attempt = 0; attempt < 100; attempt++) {
		const port = 20000 + Math.floor(Math.random() * 12000);
		if (await portIsFree(port)) return port;
	}
	return await new Promise((resolve, reject) => {
		const srv = createServer();
		srv.unref();
		srv.on('error', reject);
		srv.listen(0, '127.0.0.1', () => {
			const addr = srv.address();
			srv.close(() =>
				typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port')),
			);
		});
	});
}

export async function portIsFree(port: number): Promise<boolean> {
	return await new Promise((resolve) => {
		const srv = createServer();
		srv.unref();
		srv.once('error', () => resolve(false));
		srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
	});
}
