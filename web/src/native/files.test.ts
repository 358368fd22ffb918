import { Capacitor } from '@capacitor/core';
import { Directory } from '@capacitor/filesystem';
import { FileOpener } from '@capacitor-community/file-opener';
import { Messages } from '@cc/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, type ApiResponse } from '../app/api';
import { notificationsStore } from '../app/notifications';
import {
  blobToBase64,
  downloadFile,
  fileNameFrom,
  type NativeFilePlugins,
  nativeFilePath,
  safeFileName,
  saveNatively,
} from './files';

const PDF = '%PDF-1.7 test';
const pdfBlob = () => new Blob([PDF], { type: 'application/pdf' });
const fileAnswer = (name: string | null): ApiResponse<Blob> => ({
  status: 200,
  data: pdfBlob(),
  headers: new Headers(name ? { 'content-disposition': `attachment; filename="${name}"` } : {}),
});
const failure = (status: number) =>
  new ApiError({ status, data: { message: status === 500 ? '' : 'Nope.' }, headers: new Headers() });

/** Fake plugins that record what they were asked, or fail at one step. */
function fakePlugins(fail?: 'write' | 'open') {
  const calls: { write: Parameters<NativeFilePlugins['writeFile']>[0][]; open: unknown[] } = {
    write: [],
    open: [],
  };
  const plugins: NativeFilePlugins = {
    writeFile: async (options) => {
      calls.write.push(options);
      if (fail === 'write') throw new Error('disk full');
      return { uri: `file:///cache/${options.path}` };
    },
    open: async (options) => {
      calls.open.push(options);
      if (fail === 'open') throw new Error('no viewer');
    },
  };
  return { plugins, calls };
}

describe('file names', () => {
  it('reads the server name, RFC 5987 first, and falls back', () => {
    expect(fileNameFrom('attachment; filename="report.pdf"', 'x')).toBe('report.pdf');
    expect(fileNameFrom("attachment; filename*=UTF-8''caf%C3%A9%20list.xlsx", 'x')).toBe('café list.xlsx');
    expect(fileNameFrom('attachment; filename*=UTF-8\'\'%E0%A4%A; filename="plain.pdf"', 'x')).toBe(
      'plain.pdf',
    );
    expect(fileNameFrom(null, 'fallback.pdf')).toBe('fallback.pdf');
  });

  it('makes names safe for the device file systems', () => {
    expect(safeFileName('../../etc/passwd')).toBe('etc-passwd');
    expect(safeFileName('Compliance: Home/North 26-11-2026.pdf')).toBe(
      'Compliance- Home-North 26-11-2026.pdf',
    );
    expect(safeFileName('.hidden')).toBe('hidden');
    expect(safeFileName('???')).toBe('download');
    const long = safeFileName(`${'a'.repeat(300)}.xlsx`);
    expect(long).toHaveLength(120);
    expect(long.endsWith('.xlsx')).toBe(true);
  });

  it('writes every download into a folder of its own, keeping its name', () => {
    const first = nativeFilePath('report.pdf', 1_700_000_000_000, () => 0.1);
    const second = nativeFilePath('report.pdf', 1_700_000_000_000, () => 0.2);
    expect(first).toMatch(/^downloads\/[a-z0-9]+\/report\.pdf$/);
    expect(first).not.toBe(second);
  });
});

describe('saveNatively (the shell)', () => {
  it('writes the bytes as base64 into the cache and opens the written file with its type', async () => {
    const { plugins, calls } = fakePlugins();
    await saveNatively(pdfBlob(), 'Certificate: Casey.pdf', plugins);
    expect(calls.write).toHaveLength(1);
    const write = calls.write[0]!;
    expect(write.directory).toBe(Directory.Cache);
    expect(write.recursive).toBe(true);
    expect(write.path).toMatch(/^downloads\/[a-z0-9]+\/Certificate- Casey\.pdf$/);
    expect(atob(write.data)).toBe(PDF);
    expect(calls.open).toEqual([{ filePath: `file:///cache/${write.path}`, contentType: 'application/pdf' }]);
  });

  it('fails when the file cannot be written, without opening anything', async () => {
    const { plugins, calls } = fakePlugins('write');
    await expect(saveNatively(pdfBlob(), 'a.pdf', plugins)).rejects.toThrow('disk full');
    expect(calls.open).toEqual([]);
  });

  it("fails when the file opener cannot open it (the plugin's web build has no opener)", async () => {
    const { plugins } = fakePlugins();
    await expect(
      saveNatively(pdfBlob(), 'a.pdf', { ...plugins, open: (o) => FileOpener.open(o) }),
    ).rejects.toBeTruthy();
  });

  it('encodes binary bytes exactly', async () => {
    const bytes = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x00, 0xff, 0x80]);
    const base64 = await blobToBase64(new Blob([bytes]));
    expect(Array.from(atob(base64), (c) => c.charCodeAt(0))).toEqual(Array.from(bytes));
  });
});

describe('downloadFile', () => {
  let alert: ReturnType<typeof vi.fn>;
  let clicked: { href: string; download: string }[];
  beforeEach(() => {
    alert = vi.fn();
    vi.stubGlobal('alert', alert);
    clicked = [];
    const urls = URL as unknown as { createObjectURL: unknown; revokeObjectURL: unknown };
    urls.createObjectURL = vi.fn(() => 'blob:file');
    urls.revokeObjectURL = vi.fn();
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.href, download: this.download });
    });
    notificationsStore.set([]);
  });
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.unstubAllGlobals();
  });

  it("in a browser saves through the browser's download under the server's name", async () => {
    const saved = await downloadFile(async () => fileAnswer('report-26-11-2026.pdf'), {
      fallbackName: 'report.pdf',
      failure: 'Failed.',
    });
    expect(saved).toBe(true);
    expect(clicked).toEqual([{ href: 'blob:file', download: 'report-26-11-2026.pdf' }]);
  });

  it("a caller's own name wins over the server's; an empty answer is onEmpty", async () => {
    await downloadFile(async () => fileAnswer('server.pdf'), {
      fallbackName: 'x.pdf',
      name: 'mine.pdf',
      failure: 'Failed.',
    });
    expect(clicked.map((c) => c.download)).toEqual(['mine.pdf']);
    const onEmpty = vi.fn();
    const saved = await downloadFile(
      async () => ({ status: 204, data: null as never, headers: new Headers() }),
      {
        fallbackName: 'x.pdf',
        failure: 'Failed.',
        onEmpty,
      },
    );
    expect(saved).toBe(false);
    expect(onEmpty).toHaveBeenCalledOnce();
  });

  it("in a browser a failure is the page's notice, not an alert", async () => {
    const saved = await downloadFile(() => Promise.reject(failure(500)), {
      fallbackName: 'x.pdf',
      failure: 'Something went wrong on exporting the results',
    });
    expect(saved).toBe(false);
    expect(alert).not.toHaveBeenCalled();
    expect(notificationsStore.get().map((n) => n.message)).toEqual([
      'Something went wrong on exporting the results',
    ]);
  });

  it("in the mobile app a failed request is the 'Unable to download' alert", async () => {
    vi.stubEnv('VITE_FORCE_MOBILE', '1');
    const saved = await downloadFile(() => Promise.reject(failure(500)), {
      fallbackName: 'x.pdf',
      failure: 'Failed.',
    });
    expect(saved).toBe(false);
    expect(alert).toHaveBeenCalledExactlyOnceWith(Messages.unableToDownload);
    expect(Messages.unableToDownload).toBe('Unable to download');
    expect(notificationsStore.get()).toEqual([]);
  });

  it("in the shell a native save that fails (the plugins' web builds here) is the 'Unable to download' alert", async () => {
    vi.spyOn(Capacitor, 'isNativePlatform').mockReturnValue(true);
    const saved = await downloadFile(async () => fileAnswer('certificate.pdf'), {
      fallbackName: 'x.pdf',
      failure: 'Failed.',
    });
    expect(saved).toBe(false);
    expect(clicked).toEqual([]);
    expect(alert).toHaveBeenCalledExactlyOnceWith('Unable to download');
  });

  it('a 403 says nothing (the api client has gone to /403)', async () => {
    vi.stubEnv('VITE_FORCE_MOBILE', '1');
    expect(await downloadFile(() => Promise.reject(failure(403)), { fallbackName: 'x', failure: 'F' })).toBe(
      false,
    );
    expect(alert).not.toHaveBeenCalled();
    expect(notificationsStore.get()).toEqual([]);
  });
});
