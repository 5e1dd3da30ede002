/**
 * The workflows of the service core (docs/api-resources.md#resources-and-their-fields: Workflow; docs/api-resources.md#versioning): deploying,
 * reading, updating and deleting workflows, their revisions (IDs, the kept list) and the compile of each
 * source. The service core (core.ts) holds one store and starts executions from its records.
 *
 * Decision where the spec is silent (docs/differences.md): a workflow created again
 * under a deleted ID goes on from the old revision counter, so a revision ID always names one source.
 */
import { compileDefinition } from '../../lang/definition/compile.ts';
import type { Definition } from '../../lang/definition/ast.ts';
import { DefinitionError } from '../../lang/definition/errors.ts';
import type { DefinitionLibrary } from '../../lang/definition/library.ts';
import type { Compat } from '../../lang/compat.ts';
import type { Clock } from '../../stdlib/types.ts';
import {
  checkSettings,
  revisionSettingsDiffer,
  SETTING_NAMES,
  settingsDiffer,
  settingsOf,
  type WorkflowSettings,
} from './workflow-settings.ts';
import { ApiError } from '../errors.ts';
import type { ServiceCore, ServiceEvent, Workflow } from '../model.ts';
import { revisionId, timestamp, workflowIdProblem } from '../names.ts';
import { checkCallLogLevel } from '../executions/call-log-observer.ts';
import { checkHistoryLevel } from '../executions/execution-view.ts';
import { writeError } from '../../platform/std-streams.ts';

/** Largest description, in characters (docs/api-resources.md#workflow: max 1000). */
const MAX_DESCRIPTION_CHARS = 1000;

/**
 * Revisions kept per workflow (docs/rest-api.md#workflow-settings-and-revisions): the newest ones; older ones are forgotten (their executions keep
 * running and stay readable). Google keeps every revision; a watched file saved all day must not grow without
 * bound here.
 */
export const MAX_REVISIONS_PER_WORKFLOW = 100;

/** The fields updateWorkflow may change (its update mask's paths). */
const UPDATABLE: readonly string[] = ['sourceContents', 'description', 'executionHistoryLevel', 'callLogLevel', ...SETTING_NAMES];

/** A deployed workflow with its compiled current revision. */
export interface WorkflowRecord {
  readonly id: string;
  resource: Workflow;
  /** Its kept revisions, oldest first; the last is `resource` as it is now. */
  revisions: Workflow[];
  definition: Definition;
  /** Revisions made under this ID so far (also across a delete and re-create). */
  counter: number;
}

/** What {@link createWorkflowStore} needs from the service core. */
export interface WorkflowStoreOptions {
  /** `projects/{project}/locations/{location}`: the parent of every workflow name. */
  readonly parent: string;
  /** Time for createTime, updateTime and revisionCreateTime. */
  readonly clock: Clock;
  /** The functions, retry policies and backoffs definitions may name. */
  readonly library: DefinitionLibrary;
  /** `google`: definitions are read as Google's service reads them (docs/compat.md); default the spec's. */
  readonly compat?: Compat;
  /** Called after every change of a workflow. */
  readonly emit: (event: ServiceEvent) => void;
}

/** The workflow methods of {@link ServiceCore}, as the store implements them. */
export type WorkflowMethods = Pick<
  ServiceCore,
  'createWorkflow' | 'getWorkflow' | 'listWorkflowRevisions' | 'listWorkflows' | 'updateWorkflow' | 'deleteWorkflow'
>;

/** A store of workflows: the {@link ServiceCore} workflow methods plus what the execution half needs. */
export interface WorkflowStore {
  /** The workflow methods of the service core; each throws {@link ApiError} as {@link ServiceCore} says. */
  readonly methods: WorkflowMethods;
  /** The record of a deployed workflow. @throws ApiError NOT_FOUND */
  find(workflowId: string): WorkflowRecord;
  /** Whether a workflow of this ID is deployed. */
  has(workflowId: string): boolean;
  /** Every deployed workflow's record, in the order deployed. */
  records(): Iterable<WorkflowRecord>;
  /** Forgets every workflow and every revision counter (the control API's reset). */
  clear(): void;
  /** The revision counters of deleted workflows, by ID (a re-created ID goes on from its counter). */
  deletedCounters(): ReadonlyMap<string, number>;
  /**
   * Puts back a workflow read from a data directory or an export (src/service/persist/): its current
   * resource, kept revisions (oldest first) and revision counter; its source is compiled again.
   * @throws ApiError INVALID_ARGUMENT when the source no longer compiles
   */
  restore(id: string, resource: Workflow, revisions: readonly Workflow[], counter: number): void;
  /** Puts back the revision counter of a deleted workflow. */
  restoreDeleted(id: string, counter: number): void;
}

/**
 * Creates an empty workflow store. Every method throws {@link ApiError}: INVALID_ARGUMENT for a bad ID, field
 * or definition (the compiler's step, line and problem in the message), ALREADY_EXISTS, NOT_FOUND, and
 * INTERNAL for a bug of the compiler (never blamed on the definition).
 */
export function createWorkflowStore(options: WorkflowStoreOptions): WorkflowStore {
  return new Workflows(options);
}

type UpdateInput = Parameters<ServiceCore['updateWorkflow']>[1];

/** The workflows of one service core, by ID, with their kept revisions. */
class Workflows implements WorkflowStore {
  readonly #byId = new Map<string, WorkflowRecord>();
  /** Revision counters of deleted workflows, so a re-created ID continues its numbering. */
  readonly #deletedCounters = new Map<string, number>();
  readonly methods: WorkflowMethods;

  constructor(private readonly options: WorkflowStoreOptions) {
    this.methods = {
      createWorkflow: (workflowId, input) => this.#create(workflowId, input),
      getWorkflow: (workflowId, revision) => this.#get(workflowId, revision),
      listWorkflowRevisions: (workflowId) => this.find(workflowId).revisions.slice().reverse(),
      listWorkflows: () => [...this.#byId.values()].map((wf) => wf.resource).reverse(),
      updateWorkflow: (workflowId, input, updateMask) => this.#update(workflowId, input, updateMask),
      deleteWorkflow: (workflowId) => this.#delete(workflowId),
    };
  }

  find(id: string): WorkflowRecord {
    const wf = this.#byId.get(id);
    if (!wf) throw ApiError.notFound(`workflow "${this.#name(id)}" not found`);
    return wf;
  }

  has(workflowId: string): boolean {
    return this.#byId.has(workflowId);
  }

  records(): Iterable<WorkflowRecord> {
    return this.#byId.values();
  }

  clear(): void {
    this.#byId.clear();
    this.#deletedCounters.clear();
  }

  deletedCounters(): ReadonlyMap<string, number> {
    return this.#deletedCounters;
  }

  restore(id: string, resource: Workflow, revisions: readonly Workflow[], counter: number): void {
    const definition = this.#compile(resource.sourceContents);
    const kept = revisions.map((r) => (r.revisionId === resource.revisionId ? resource : Object.freeze(r)));
    if (kept[kept.length - 1] !== resource) kept.push(resource);
    this.#byId.set(id, { id, resource: Object.freeze(resource), revisions: kept, definition, counter });
    this.#deletedCounters.delete(id);
  }

  restoreDeleted(id: string, counter: number): void {
    this.#byId.delete(id);
    this.#deletedCounters.set(id, counter);
  }

  #name(id: string): string {
    return `${this.options.parent}/workflows/${id}`;
  }

  #compile(sourceContents: string): Definition {
    if (sourceContents.trim() === '') throw ApiError.invalidArgument('sourceContents is empty: a workflow definition is required');
    try {
      return compileDefinition(sourceContents, this.options.library, this.options.compat === 'google' ? { compat: 'google' } : {});
    } catch (e) {
      throw definitionError(e);
    }
  }

  #create(workflowId: string, input: Parameters<ServiceCore['createWorkflow']>[1]): Workflow {
    const problem = workflowIdProblem(workflowId);
    if (problem) throw ApiError.invalidArgument(`invalid workflowId: ${problem}`);
    if (this.#byId.has(workflowId)) {
      throw new ApiError('ALREADY_EXISTS', `workflow "${this.#name(workflowId)}" already exists`);
    }
    checkSourceType(input.sourceContents);
    checkDescription(input.description);
    const historyLevel = checkHistoryLevel(input.executionHistoryLevel);
    const callLogLevel = checkCallLogLevel(input.callLogLevel);
    const settings = checkSettings(input as unknown as Record<string, unknown>);
    const definition = this.#compile(input.sourceContents);
    const counter = (this.#deletedCounters.get(workflowId) ?? 0) + 1;
    const now = timestamp(this.options.clock.now());
    const resource: Workflow = Object.freeze({
      name: this.#name(workflowId),
      state: 'ACTIVE',
      revisionId: revisionId(counter, revisionKey(input.sourceContents, settings)),
      sourceContents: input.sourceContents,
      description: input.description ?? '',
      createTime: now,
      updateTime: now,
      revisionCreateTime: now,
      ...(historyLevel ? { executionHistoryLevel: historyLevel } : {}),
      ...(callLogLevel ? { callLogLevel } : {}),
      ...settings,
    });
    this.#byId.set(workflowId, { id: workflowId, resource, revisions: [resource], definition, counter });
    this.#deletedCounters.delete(workflowId);
    this.options.emit({ type: 'workflow', workflowId });
    return resource;
  }

  #get(workflowId: string, revision: string | undefined): Workflow {
    const wf = this.find(workflowId);
    if (revision === undefined || revision === '' || revision === wf.resource.revisionId) return wf.resource;
    const kept = wf.revisions.find((r) => r.revisionId === revision);
    if (!kept) {
      throw ApiError.notFound(`revision "${revision}" of workflow "${wf.resource.name}" not found (the last ${MAX_REVISIONS_PER_WORKFLOW} revisions are kept)`);
    }
    return kept;
  }

  #update(workflowId: string, input: UpdateInput, updateMask: readonly string[] | undefined): Workflow {
    const wf = this.find(workflowId);
    const mask = checkUpdateMask(updateMask);
    const wanted = (field: string): boolean =>
      mask ? mask.has(field) : (input as unknown as Record<string, unknown>)[field] !== undefined;
    const old = wf.resource;
    const settings = mergeSettings(old, input, wanted);
    let { definition, counter } = wf;
    let source = old.sourceContents;
    if (wanted('sourceContents')) {
      const s = input.sourceContents ?? '';
      checkSourceType(s);
      if (s !== old.sourceContents) {
        definition = this.#compile(s);
        source = s;
      }
    }
    const newRevision = source !== old.sourceContents || revisionSettingsDiffer(settings, old);
    if (newRevision) counter += 1;
    const description = wanted('description') ? (input.description ?? '') : old.description;
    checkDescription(description);
    const historyLevel = wanted('executionHistoryLevel') ? checkHistoryLevel(input.executionHistoryLevel) : old.executionHistoryLevel;
    const callLogLevel = wanted('callLogLevel') ? checkCallLogLevel(input.callLogLevel) : old.callLogLevel;
    const unchanged = description === old.description && historyLevel === old.executionHistoryLevel && callLogLevel === old.callLogLevel;
    if (!newRevision && unchanged && !settingsDiffer(settings, old)) return old;
    wf.definition = definition;
    wf.counter = counter;
    const now = timestamp(this.options.clock.now());
    wf.resource = Object.freeze({
      name: old.name,
      state: 'ACTIVE',
      revisionId: newRevision ? revisionId(counter, revisionKey(source, settings)) : old.revisionId,
      sourceContents: source,
      description,
      createTime: old.createTime,
      updateTime: now,
      revisionCreateTime: newRevision ? now : (old.revisionCreateTime ?? old.createTime),
      ...(historyLevel ? { executionHistoryLevel: historyLevel } : {}),
      ...(callLogLevel ? { callLogLevel } : {}),
      ...settings,
    });
    keepRevision(wf, newRevision);
    this.options.emit({ type: 'workflow', workflowId });
    return wf.resource;
  }

  #delete(workflowId: string): void {
    const wf = this.find(workflowId);
    this.#byId.delete(workflowId);
    this.#deletedCounters.set(workflowId, wf.counter);
    this.options.emit({ type: 'workflow', workflowId });
  }
}

/** An update mask's fields, each one updateWorkflow may change; undefined for no mask. @throws ApiError INVALID_ARGUMENT */
function checkUpdateMask(updateMask: readonly string[] | undefined): Set<string> | undefined {
  const mask = updateMask && updateMask.length > 0 ? new Set(updateMask) : undefined;
  for (const f of mask ?? []) {
    if (!UPDATABLE.includes(f)) {
      throw ApiError.invalidArgument(`updateMask: field "${f}" cannot be updated (only ${UPDATABLE.join(', ')})`);
    }
  }
  return mask;
}

/** The settings after an update: each one is replaced when wanted (masked, or given without a mask); the others stay. */
function mergeSettings(old: Workflow, input: UpdateInput, wanted: (field: string) => boolean): WorkflowSettings {
  const given = checkSettings(input as unknown as Record<string, unknown>);
  const merged: Record<string, unknown> = { ...settingsOf(old) };
  for (const k of SETTING_NAMES) {
    if (!wanted(k)) continue;
    if (given[k] === undefined) delete merged[k];
    else merged[k] = given[k];
  }
  return merged as WorkflowSettings;
}

/**
 * The revision list after an update: a new revision is appended (the oldest beyond the bound forgotten); a
 * change of description or labels alone updates the current revision's entry.
 */
function keepRevision(wf: WorkflowRecord, newRevision: boolean): void {
  if (newRevision) {
    wf.revisions.push(wf.resource);
    if (wf.revisions.length > MAX_REVISIONS_PER_WORKFLOW) wf.revisions.shift();
  } else wf.revisions[wf.revisions.length - 1] = wf.resource;
}

/** What a revision ID hashes: the source, and the settings that belong to a revision when there are any. */
function revisionKey(source: string, settings: WorkflowSettings): string {
  const extra = { userEnvVars: settings.userEnvVars, serviceAccount: settings.serviceAccount, cryptoKeyName: settings.cryptoKeyName };
  return Object.values(extra).some((v) => v !== undefined) ? `${source}\u0000${JSON.stringify(extra)}` : source;
}

function checkDescription(description: string | undefined): void {
  if (description !== undefined && [...description].length > MAX_DESCRIPTION_CHARS) {
    throw ApiError.invalidArgument(`description is longer than ${MAX_DESCRIPTION_CHARS} characters`);
  }
}

function checkSourceType(s: unknown): asserts s is string {
  if (typeof s !== 'string') throw ApiError.invalidArgument('sourceContents must be a string');
}

/**
 * The 400 for a definition that does not compile: "invalid workflow definition: <message>", where the
 * compiler's message names the step, line:column and problem (a DefinitionError, YAML syntax errors
 * included). Anything else thrown while compiling is a bug of the emulator, not of the workflow: a 500
 * INTERNAL saying so (its stack goes to stderr), never blamed on the user's definition.
 */
function definitionError(e: unknown): ApiError {
  if (e instanceof ApiError) return e;
  if (!(e instanceof DefinitionError)) {
    writeError(`workflows-emulator: internal error while compiling a definition: ${(e as Error)?.stack ?? String(e)}\n`);
    return ApiError.from(e, 'while compiling the workflow definition (a bug in the emulator, not in the workflow)');
  }
  const err = (e ?? {}) as { message?: unknown; line?: unknown; col?: unknown; step?: unknown };
  let msg = typeof err.message === 'string' ? err.message : String(e);
  // A DefinitionError's message already reads "invalid workflow definition: step "x" (line 3, column 5): ...".
  if (/^invalid workflow definition/i.test(msg)) return withCause(ApiError.invalidArgument(msg), e);
  const where: string[] = [];
  if (typeof err.step === 'string' && !msg.includes(err.step)) where.push(`step "${err.step}"`);
  if (typeof err.line === 'number' && !msg.includes(`${err.line}:`) && !/line/i.test(msg)) {
    where.push(`line ${err.line}${typeof err.col === 'number' ? `:${err.col}` : ''}`);
  }
  if (where.length) msg = `${where.join(', ')}: ${msg}`;
  return withCause(ApiError.invalidArgument(`invalid workflow definition: ${msg}`), e);
}

/** The error with the compiler's error as its `cause`, so the watcher can read its line, column and step. */
function withCause(err: ApiError, cause: unknown): ApiError {
  Object.defineProperty(err, 'cause', { value: cause, enumerable: false });
  return err;
}
