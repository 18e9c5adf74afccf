// The environment of an isolated loopback n8n, server or CLI, on one user folder (part of
// runtime.cts, which re-exports it).
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { versionTraits } from './version.cjs';

/** A fixed encryption key per user folder (created once, kept in the folder). */
export function encryptionKey(userFolder: string): string {
	const file = path.join(userFolder, '.idv-encryption-key');
	if (!existsSync(file)) {
		mkdirSync(userFolder, { recursive: true });
		writeFileSync(file, randomBytes(24).toString('hex'), { mode: 0o600 });
	}
	return readFileSync(file, 'utf8').trim();
}

/** Env for any n8n process (server or CLI) on this user folder. Nothing here leaves loopback. */
export function n8nEnv(
	userFolder: string,
	port: number,
	extra: Record<string, string> = {},
): NodeJS.ProcessEnv {
	const traits = versionTraits();
	const base: NodeJS.ProcessEnv = {};
	// Keep only what a child needs from our environment; never leak a developer's N8N_* / DB_* settings.
	for (const k of ['PATH', 'HOME', 'LANG', 'TZ', 'TMPDIR', 'npm_config_nodedir', 'SystemRoot']) {
		if (process.env[k] !== undefined) base[k] = process.env[k];
	}
	const env: NodeJS.ProcessEnv = {
		...base,
		NODE_ENV: 'production',
		N8N_USER_FOLDER: userFolder,
		N8N_ENCRYPTION_KEY: encryptionKey(userFolder),
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'true',
		N8N_PORT: String(port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		WEBHOOK_URL: `http://127.0.0.1:${port}/`,
		N8N_EDITOR_BASE_URL: `http://127.0.0.1:${port}/`,
		N8N_SECURE_COOKIE: 'false',
		DB_TYPE: 'sqlite',
		DB_SQLITE_POOL_SIZE: '2',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_AI_ENABLED: 'false',
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		N8N_REINSTALL_MISSING_PACKAGES: 'false',
		N8N_SSRF_PROTECTION_ENABLED: 'false',
		// Loopback only: switch off everything that would call n8n's servers (MCP server registry,
		// licence renewal, banners, the verified-community-nodes list).
		N8N_DISABLED_MODULES: 'mcp-registry',
		N8N_LICENSE_AUTO_RENEW_ENABLED: 'false',
		N8N_DYNAMIC_BANNERS_ENABLED: 'false',
		N8N_VERIFIED_PACKAGES_ENABLED: 'false',
		N8N_RUNNERS_MODE: 'internal',
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
		N8N_PUBLIC_API_DISABLED: 'true',
		EXECUTIONS_DATA_SAVE_ON_SUCCESS: 'all',
		EXECUTIONS_DATA_SAVE_ON_ERROR: 'all',
		EXECUTIONS_DATA_SAVE_MANUAL_EXECUTIONS: 'true',
		N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem',
		// info, not warn: the CLI prints --rawOutput and the server its "Editor is now accessible"
		// line through the logger. Output goes to a log file, not the terminal.
		N8N_LOG_LEVEL: 'info',
		N8N_LOG_OUTPUT: 'console',
		N8N_NO_COLOR: 'true',
		NO_COLOR: '1',
		...traits.env,
		...extra,
	};
	for (const name of traits.unknownEnv) if (!(name in extra)) delete env[name];
	return env;
}
