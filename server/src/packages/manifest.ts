import { createRequire } from 'node:module';
import path from 'node:path';
import type { ScormItem } from '@cc/contracts';
import type { XMLParser } from 'fast-xml-parser';
import { invalidField } from '../http/errors';
import { FIELD, safeEntryName } from './zip';

/**
 * Reading what a package says about itself (issue 4 item 2). XML is parsed by fast-xml-parser with entity
 * processing off (no DOCTYPE entity expansion), namespace prefixes dropped (adlcp:masteryscore -> masteryscore).
 */
const refuse = (message: string) => invalidField(FIELD, message);

// The item's shape is the API's (the player's launch data carries it): it lives in the contracts.
export type { ScormItem } from '@cc/contracts';

export interface ScormManifest {
  version: '1.2' | '2004';
  title: string;
  /** The first launchable item's launch path and mastery score (what a single-SCO player needs). */
  launchPath: string;
  masteryScore: number | null;
  items: ScormItem[];
}

type Node = Record<string, unknown>;
/** Reads one extracted file of the package as UTF-8 text (service.ts: from the store). */
export type ReadText = (name: string) => Promise<string>;
const LISTS = new Set(['organization', 'item', 'resource', 'file', 'objective']);
let parser: XMLParser | null = null;
/** Made at the first package upload: a server process that never reads a manifest does not load the XML parser. */
function xmlParser(): XMLParser {
  if (parser) return parser;
  const { XMLParser: Parser } = createRequire(import.meta.url)(
    'fast-xml-parser',
  ) as typeof import('fast-xml-parser');
  parser = new Parser({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    removeNSPrefix: true,
    processEntities: false,
    htmlEntities: false,
    parseTagValue: false,
    parseAttributeValue: false,
    isArray: (name) => LISTS.has(name),
  });
  return parser;
}

const text = (value: unknown): string | null => {
  if (typeof value === 'string') return value.trim() || null;
  if (typeof value === 'number') return String(value);
  if (value && typeof value === 'object' && '#text' in value) return text((value as Node)['#text']);
  return null;
};
const list = (value: unknown): Node[] => (Array.isArray(value) ? (value as Node[]) : []);
const node = (value: unknown): Node | undefined =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Node) : undefined;
const numberOrNull = (value: unknown): number | null => {
  const t = text(value);
  if (t === null) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
};
const isTrue = (value: unknown) => text(value)?.toLowerCase() === 'true';

/** 1.2 unless the manifest says 2004 (schemaversion "2004 3rd Edition", "CAM 1.3", or the adlcp_v1p3 namespace). */
function detectVersion(manifest: Node, xml: string): '1.2' | '2004' {
  const metadata = manifest.metadata as Node | undefined;
  const schemaVersion = text(metadata?.schemaversion) ?? '';
  if (/2004|CAM 1\.3/i.test(schemaVersion)) return '2004';
  if (/^1\.2$/.test(schemaVersion)) return '1.2';
  return /adlcp_v1p3|imsss/i.test(xml) ? '2004' : '1.2';
}

/** Joins xml:base prefixes and the href, normalised and checked like a zip entry name; query kept apart. */
function launchPathOf(bases: (string | null | undefined)[], href: string, parameters: string | null) {
  const [filePart = '', query = ''] = href.split(/\?(.*)/s, 2);
  const joined = path.posix.normalize([...bases.filter(Boolean), filePart].join('/'));
  const file = safeEntryName(joined.replace(/^\.\//, ''));
  const extra = parameters?.replace(/^[?&]/, '') ?? '';
  const q = [query, extra].filter(Boolean).join('&');
  return { file, launch: q ? `${file}?${q}` : file };
}

/** SCORM 2004 sequencing of an item: its objectives and whether the content sets completion itself. */
function sequencingOf(item: Node) {
  const sequencing = node(item.sequencing);
  const objectives = node(sequencing?.objectives);
  const primary = node(objectives?.primaryObjective);
  const others = list(objectives?.objective);
  const ids = [primary, ...others]
    .map((o) => (o ? text(o['@_objectiveID']) : null))
    .filter((id): id is string => id !== null);
  // IMS SS: minNormalizedMeasure defaults to 1.0 and only counts when the objective is satisfied by measure.
  const byMeasure = primary ? isTrue(primary['@_satisfiedByMeasure']) : false;
  const measure = primary ? (numberOrNull(primary.minNormalizedMeasure) ?? 1) : null;
  const scaledPassingScore = byMeasure && measure !== null && measure >= -1 && measure <= 1 ? measure : null;
  const delivery = node(sequencing?.deliveryControls);
  return {
    objective_ids: [...new Set(ids)],
    scaled_passing_score: scaledPassingScore,
    completion_set_by_content: delivery ? isTrue(delivery['@_completionSetByContent']) : false,
  };
}

interface ItemContext {
  manifest: Node;
  resources: Node | undefined;
  files: Set<string>;
}

/** Depth first, each item with its launch file (checked to be in the package) and what its runtime needs. */
function readItems(items: Node[], depth: number, parent: string | null, ctx: ItemContext): ScormItem[] {
  const out: ScormItem[] = [];
  for (const item of items) {
    const identifier = text(item['@_identifier']) ?? `item-${depth}-${out.length}`;
    const ref = text(item['@_identifierref']);
    const resource = ref ? list(ctx.resources?.resource).find((r) => r['@_identifier'] === ref) : undefined;
    const href = resource ? text(resource['@_href']) : null;
    let launchPath: string | null = null;
    if (ref && (!resource || !href))
      throw refuse(`The SCORM manifest item ${identifier} points at a resource without a launch file.`);
    if (resource && href) {
      const { file, launch } = launchPathOf(
        [text(ctx.manifest['@_base']), text(ctx.resources?.['@_base']), text(resource['@_base'])],
        href,
        text(item['@_parameters']),
      );
      if (!ctx.files.has(file)) throw refuse(`The SCORM launch file ${file} is not in the package.`);
      launchPath = launch;
    }
    const type = text(resource?.['@_scormtype'] ?? resource?.['@_scormType'])?.toLowerCase();
    out.push({
      identifier,
      title: text(item.title) ?? identifier,
      depth,
      parent,
      launch_path: launchPath,
      scorm_type: resource ? (type === 'asset' ? 'asset' : 'sco') : null,
      visible: text(item['@_isvisible'])?.toLowerCase() !== 'false',
      mastery_score: numberOrNull(item.masteryscore),
      data_from_lms: text(item.datafromlms ?? item.dataFromLMS),
      ...sequencingOf(item),
    });
    out.push(...readItems(list(item.item), depth + 1, identifier, ctx));
  }
  return out;
}

/**
 * imsmanifest.xml at the root: version, title, and every item of the default organisation (the first organisation
 * when the default names none of them), each with its launch file and runtime data.
 */
export async function readScormManifest(read: ReadText, files: Set<string>): Promise<ScormManifest> {
  if (!files.has('imsmanifest.xml'))
    throw refuse('The package is not a SCORM package: imsmanifest.xml is missing at its root.');
  const xml = await read('imsmanifest.xml');
  return parseScormManifest(xml, files);
}

/** The pure half of readScormManifest (unit-tested on manifests written in the test). */
export function parseScormManifest(xml: string, files: Set<string>): ScormManifest {
  let doc: Node;
  try {
    doc = xmlParser().parse(xml) as Node;
  } catch {
    throw refuse('The SCORM manifest (imsmanifest.xml) is not valid XML.');
  }
  const manifest = doc.manifest as Node | undefined;
  if (!manifest) throw refuse('The SCORM manifest has no manifest element.');
  const version = detectVersion(manifest, xml);
  const orgs = manifest.organizations as Node | undefined;
  const organizations = list(orgs?.organization);
  const defaultId = orgs?.['@_default'];
  const organization = organizations.find((o) => o['@_identifier'] === defaultId) ?? organizations[0];
  const items = organization
    ? readItems(list(organization.item), 0, null, {
        manifest,
        resources: manifest.resources as Node | undefined,
        files,
      })
    : [];
  const first = items.find((i) => i.launch_path !== null);
  if (!first?.launch_path)
    throw refuse(
      "The SCORM manifest has no launch file: the default organization's first item has no resource.",
    );
  return {
    version,
    title:
      text(organization?.title) ?? text((manifest.metadata as Node | undefined)?.title) ?? 'SCORM package',
    launchPath: first.launch_path,
    masteryScore: first.mastery_score,
    items,
  };
}

export interface H5pManifest {
  title: string;
  mainLibrary: string;
}

async function readJson(read: ReadText, name: string, files: Set<string>): Promise<Node> {
  if (!files.has(name)) throw refuse(`The package is not an H5P package: ${name} is missing.`);
  const json = await read(name);
  try {
    const value = JSON.parse(json);
    if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error('not an object');
    return value as Node;
  } catch {
    throw refuse(`The H5P file ${name} is not valid JSON.`);
  }
}

/** h5p.json (title, mainLibrary with its version from preloadedDependencies) and content/content.json. */
export async function readH5pManifest(read: ReadText, files: Set<string>): Promise<H5pManifest> {
  const meta = await readJson(read, 'h5p.json', files);
  await readJson(read, 'content/content.json', files);
  const main = typeof meta.mainLibrary === 'string' ? meta.mainLibrary : null;
  if (!main) throw refuse('The H5P package does not name its main library (h5p.json mainLibrary).');
  const dependency = list(meta.preloadedDependencies).find((d) => d.machineName === main);
  const version = dependency ? `${dependency.majorVersion}.${dependency.minorVersion}` : null;
  return {
    title: typeof meta.title === 'string' && meta.title.trim() ? meta.title.trim() : main,
    mainLibrary: version ? `${main} ${version}` : main,
  };
}
