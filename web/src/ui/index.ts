export { Badge, type BadgeTone } from './Badge';
export {
  Button,
  ButtonLink,
  type ButtonProps,
  type ButtonSize,
  type ButtonVariant,
  buttonClasses,
} from './Button';
export { Card } from './Card';
export { ConfirmDialog } from './ConfirmDialog';
export { cx } from './cx';
export { type Column, DataTable } from './DataTable';
export { EmptyState } from './EmptyState';
export { Checkbox, Select, TextArea, TextField } from './Field';
export { FoldingFilters } from './FoldingFilters';
export { FormDialog } from './FormDialog';
export { FormError } from './FormError';
export { PagedListCard } from './PagedListCard';
export { type Crumb, PageHeader } from './PageHeader';
export { CardPagination, Pagination, type PaginationMeta, pageWindow } from './Pagination';
export { SearchInput } from './SearchInput';
export { Spinner } from './Spinner';
export { type TabItem, Tabs } from './Tabs';
export { TOGGLE_DEFAULTS, Toggle } from './Toggle';
