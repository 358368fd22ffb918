import { type H5pDto, KINDS } from './api';
import { ResourceList } from './ResourceList';

/** `/content-creator/h5ps` (spec 2 §7 GET /h5ps). */
export default function H5psPage() {
  const k = KINDS.h5ps;
  return (
    <ResourceList
      kind="h5ps"
      title={k.plural}
      singular={k.singular}
      base={k.base}
      listError={k.listError}
      description="Interactive H5P items that topics can show."
      columns={[
        { key: 'library', header: 'Type', hideOnMobile: true, render: (h: H5pDto) => h.library ?? '—' },
        { key: 'video', header: 'Video id', hideOnMobile: true, render: (h: H5pDto) => h.video_id ?? '—' },
      ]}
    />
  );
}
