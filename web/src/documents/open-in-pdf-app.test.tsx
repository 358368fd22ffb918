import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

const files = vi.hoisted(() => ({ saveFile: vi.fn(), alertDownloadFailed: vi.fn() }));
vi.mock('../native/files', () => files);

import { OpenInPdfApp } from './OpenInPdfApp';

const pdf = () => new Blob(['%PDF-1.4'], { type: 'application/pdf' });

describe('Open in your PDF app (issue 31 §5)', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.clearAllMocks();
  });

  it('is not offered on the web (the card has its Download)', () => {
    render(<OpenInPdfApp data={pdf()} fileName="policy.pdf" />);
    expect(screen.queryByRole('button', { name: 'Open in your PDF app' })).toBeNull();
  });

  it('in the mobile app hands the bytes shown to the device, under the file name', async () => {
    vi.stubEnv('VITE_FORCE_MOBILE', '1');
    const data = pdf();
    files.saveFile.mockResolvedValue(undefined);
    render(<OpenInPdfApp data={data} fileName="policy.pdf" />);
    fireEvent.click(screen.getByRole('button', { name: 'Open in your PDF app' }));
    await waitFor(() => expect(files.saveFile).toHaveBeenCalledWith(data, 'policy.pdf'));
    expect(files.alertDownloadFailed).not.toHaveBeenCalled();
  });

  it('shows the mobile app’s one alert when the device cannot open it', async () => {
    vi.stubEnv('VITE_FORCE_MOBILE', '1');
    files.saveFile.mockRejectedValue(new Error('no viewer'));
    render(<OpenInPdfApp data={pdf()} fileName="" />);
    fireEvent.click(screen.getByRole('button', { name: 'Open in your PDF app' }));
    await waitFor(() => expect(files.alertDownloadFailed).toHaveBeenCalledOnce());
    expect(files.saveFile).toHaveBeenCalledWith(expect.any(Blob), 'document.pdf');
  });
});
