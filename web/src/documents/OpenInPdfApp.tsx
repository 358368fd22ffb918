import { isMobile } from '../app/env';
import { alertDownloadFailed, saveFile } from '../native/files';
import { Button } from '../ui';

/**
 * "Open in your PDF app" (issue 31 §5), in the mobile app only: the bytes already shown are written to the app's
 * cache and opened with the device's PDF viewer (native/files.ts saveNatively), for reading with the tools people
 * know (search, night mode, larger text). In a browser build of the mobile app it is the browser's download; on the
 * web the card's own Download does that. A failure is the mobile app's one alert, 'Unable to download' (spec 2 §8).
 */
export function OpenInPdfApp({ data, fileName }: { data: Blob; fileName: string }) {
  if (!isMobile()) return null;
  return (
    <Button variant="secondary" size="sm" onClick={() => void openInPdfApp(data, fileName)}>
      Open in your PDF app
    </Button>
  );
}

export async function openInPdfApp(data: Blob, fileName: string): Promise<void> {
  try {
    await saveFile(data, fileName || 'document.pdf');
  } catch {
    alertDownloadFailed();
  }
}
