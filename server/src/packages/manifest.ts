import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { invalidField } from '../http/errors';
import { FIELD, safeEntryName } from './zip';

/**
 * Reading what a package says about itself (issue 4 item 2). XML is parsed by fast-xml-parser with entity
 * processing off (no DOCTYPE entity expansion), namespace prefixes dropped (adlcp:masteryscore -> masteryscore).
 */
const refuse = (message: string) => invalidField(FIELD, message);

export interface ScormManifest {
  version: '1.2' | '2004';
  title: string;
  launchPath: string;
  masteryScore: number | null;
}

type Node = Record<string, unknown>;
const LISTS = new Set(['organization', 'item', 'resource', 'file']);
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  removeNSPrefix: true,
  processEntities: false,
  htmlEntities: false,
  parseTagValue: false,
  parseAttributeValue: false,
  isArray: (name) => LISTS.has(name),
});

const text = (value: unknown): string | null => {
  if (typeof value === 'string') return value.trim() || null;
  if (typeof value === 'number') return String(value);
  if (value && typeof value === 'object' && '#text' in value) return text((value as Node)['#text']);
  return null;
};
const list = (value: unknown): Node[] => (Array.isArray(value) ? (value as Node[]) : []);

/** 1.2 unless the manifest says 2004 (schemaversion "2004 3rd Edition", "CAM 1.3", or the adlcp_v1p3 namespace). */
function detectVersion(manifest: Node, xml: string): '1.2' | '2004' {
  const metadata = manifest.metadata as Node | undefined;
  const schemaVersion = text(metadata?.schemaversion) ?? '';
  if (/2004|CAM 1\.3/i.test(schemaVersion)) return '2004';
  if (/^1\.2$/.test(schemaVersion)) return '1.2';
  return /adlcp_v1p3|imsss/i.test(xml) ? '2004' : '1.2';
}

/** The first item (depth first) that points at a resource. */
function firstLaunchItem(items: Node[]): Node | null {
  for (const item of items) {
    if (item['@_identifierref']) return item;
    const inner = firstLaunchItem(list(item.item));
    if (inner) return inner;
  }
  return null;
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

/** imsmanifest.xml at the root: version, title, the launch file of the default organisation's first item. */
export async function readScormManifest(dir: string, files: Set<string>): Promise<ScormManifest> {
  if (!files.has('imsmanifest.xml'))
    throw refuse('The package is not a SCORM package: imsmanifest.xml is missing at its root.');
  const xml = await readFile(path.join(dir, 'imsmanifest.xml'), 'utf8');
  let doc: Node;
  try {
    doc = parser.parse(xml) as Node;
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
  const item = organization ? firstLaunchItem(list(organization.item)) : null;
  const resources = manifest.resources as Node | undefined;
  const resource = item
    ? list(resources?.resource).find((r) => r['@_identifier'] === item['@_identifierref'])
    : undefined;
  const href = resource ? text(resource['@_href']) : null;
  if (!item || !resource || !href)
    throw refuse(
      "The SCORM manifest has no launch file: the default organization's first item has no resource.",
    );
  const { file, launch } = launchPathOf(
    [text(manifest['@_base']), text(resources?.['@_base']), text(resource['@_base'])],
    href,
    text(item['@_parameters']),
  );
  if (!files.has(file)) throw refuse(`The SCORM launch file ${file} is not in the package.`);
  const mastery = Number(text(item.masteryscore));
  return {
    version,
    title:
      text(organization?.title) ?? text((manifest.metadata as Node | undefined)?.title) ?? 'SCORM package',
    launchPath: launch,
    masteryScore: Number.isFinite(mastery) && text(item.masteryscore) !== null ? mastery : null,
  };
}

export interface H5pManifest {
  title: string;
  mainLibrary: string;
}

async function readJson(dir: string, name: string, files: Set<string>): Promise<Node> {
  if (!files.has(name)) throw refuse(`The package is not an H5P package: ${name} is missing.`);
  try {
    const value = JSON.parse(await readFile(path.join(dir, name), 'utf8'));
    if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error('not an object');
    return value as Node;
  } catch {
    throw refuse(`The H5P file ${name} is not valid JSON.`);
  }
}

/** h5p.json (title, mainLibrary with its version from preloadedDependencies) and content/content.json. */
export async function readH5pManifest(dir: string, files: Set<string>): Promise<H5pManifest> {
  const meta = await readJson(dir, 'h5p.json', files);
  await readJson(dir, 'content/content.json', files);
  const main = typeof meta.mainLibrary === 'string' ? meta.mainLibrary : null;
  if (!main) throw refuse('The H5P package does not name its main library (h5p.json mainLibrary).');
  const dependency = list(meta.preloadedDependencies).find((d) => d.machineName === main);
  const version = dependency ? `${dependency.majorVersion}.${dependency.minorVersion}` : null;
  return {
    title: typeof meta.title === 'string' && meta.title.trim() ? meta.title.trim() : main,
    mainLibrary: version ? `${main} ${version}` : main,
  };
}
