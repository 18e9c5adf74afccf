import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { z } from 'zod';

import { issueRule } from '../../shared/contract';

/** How a request field is shown to the user: its display name and how to fix a wrong value. */
interface FieldLabel {
	/** The field's display name in the node, e.g. `Lifetime (Seconds)`. */
	label: string;
	/** What to do to fix the value, in words a non-engineer can follow. */
	fix?: string;
}

export type FieldLabels = Record<string, FieldLabel>;

/**
 * A field of the description by its name, also inside a collection (Options, Filters) or a group
 * of a fixed collection.
 */
function findField(properties: INodeProperties[], name: string): INodeProperties | undefined {
	for (const property of properties) {
		if (property.name === name) return property;
		const found = findField(innerFields(property), name);
		if (found) return found;
	}
	return undefined;
}

/** The fields a collection holds, and those of each group of a fixed collection. */
function innerFields(property: INodeProperties): INodeProperties[] {
	return (property.options ?? []).flatMap((option) => {
		if ('type' in option) return [option as INodeProperties];
		return 'values' in option ? option.values : [];
	});
}

/**
 * One field's label, for a request value whose path is not the field's name
 * (`reviewInfo.approvalStatus` is the Decision field): its display name, with how to fix it.
 */
export function fieldLabel(properties: INodeProperties[], name: string, fix?: string): FieldLabel {
	const field = findField(properties, name);
	if (!field) throw new Error(`No field "${name}" to name in a message`);
	return { label: field.displayName, fix };
}

/**
 * The labels of an operation's request fields taken from its own fields, so that a message names a
 * field as the node shows it and a renamed field renames its messages: each name's display name,
 * with how to fix a wrong value. A name the description does not have is a mistake of the code.
 */
export function fieldLabels(
	properties: INodeProperties[],
	fixes: Record<string, string | undefined>,
): FieldLabels {
	const labels: FieldLabels = {};
	for (const [name, fix] of Object.entries(fixes)) labels[name] = fieldLabel(properties, name, fix);
	return labels;
}

/** Turns one zod issue into `<Display Name>: <rule>` and a description that says how to fix it. */
function describeIssue(
	issue: z.ZodIssue,
	fields: FieldLabels,
): { message: string; description: string } {
	const path = issue.path.join('.');
	// A nested value (`access.accounts`) is named by its own field, else by the outer one.
	const field =
		fields[path] ??
		fields[String(issue.path[issue.path.length - 1] ?? '')] ??
		fields[String(issue.path[0] ?? '')];
	const label = field?.label ?? (path || 'Input');
	// The rule in the contract's words, never the value (issueRule).
	let rule = issueRule(issue);
	// The contract's own messages sometimes start with the field's name ("Client ID must not be empty").
	if (rule.toLowerCase().startsWith(label.toLowerCase())) rule = rule.slice(label.length).trim();
	const message = `${label}: ${rule}`;
	const description = field?.fix
		? `${field.fix}`
		: `Change the "${label}" field so that it ${rule.replace(/^must /, 'meets the rule: must ')}.`;
	return { message, description };
}

/**
 * Validates `input` with a schema of the contract before any request is sent. On failure throws a
 * NodeOperationError naming the field's display name and the broken rule (first issue), with a
 * description that says how to fix it; further issues are listed in the description too.
 */
export function validateInput<S extends z.ZodTypeAny>(
	this: IExecuteFunctions,
	schema: S,
	input: unknown,
	fields: FieldLabels,
	itemIndex: number,
): z.output<S> {
	const result = schema.safeParse(input);
	if (result.success) return result.data as z.output<S>;
	const described = result.error.issues.map((issue) => describeIssue(issue, fields));
	const [first, ...rest] = described;
	const description = rest.length
		? `${first.description} Also: ${rest.map((d) => d.message).join('; ')}.`
		: first.description;
	throw new NodeOperationError(this.getNode(), first.message, { itemIndex, description });
}

/** A validation error for a rule that is not expressed as a schema (e.g. a file's real type). */
export function invalidInput(
	this: IExecuteFunctions,
	label: string,
	rule: string,
	fix: string,
	itemIndex: number,
): NodeOperationError {
	return new NodeOperationError(this.getNode(), `${label}: ${rule}`, {
		itemIndex,
		description: fix,
	});
}

/** The entries of a comma-separated text (`vip, onboarding`), trimmed, empty ones left out. */
export function splitList(text: string): string[] {
	return text
		.split(',')
		.map((entry) => entry.trim())
		.filter((entry) => entry !== '');
}

/**
 * The day (`1985-04-12`) a date's text starts with: what n8n's date picker saves
 * (`1985-04-12T00:00:00`), a day as text, or an ISO date from an expression; none for other text.
 */
export function dayOfText(text: string): string | undefined {
	return /^\s*(\d{4}-\d{2}-\d{2})(?:[T ].*)?$/.exec(text)?.[1];
}

/**
 * A number field's value as a number when an expression gave it as text ("3600" from a previous
 * node); anything else is returned unchanged for the schema to judge.
 */
export function numberFromText(value: unknown): unknown {
	if (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Number(value);
	return value;
}
