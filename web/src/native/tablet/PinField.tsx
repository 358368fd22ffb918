import { TextField, type TextFieldProps } from '../../ui/Field';

/** A tablet PIN: digits only, masked, never offered to a password manager. */
export function PinField(
  props: Omit<TextFieldProps, 'type' | 'inputMode' | 'maxLength' | 'onChange'> & {
    onValue: (pin: string) => void;
  },
) {
  const { onValue, ...rest } = props;
  return (
    <TextField
      {...rest}
      type="password"
      inputMode="numeric"
      pattern="[0-9]*"
      maxLength={6}
      autoComplete="off"
      onChange={(e) => onValue(e.target.value.replace(/\D/g, '').slice(0, 6))}
    />
  );
}

export function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((p) => p[0]?.toUpperCase())
    .join('');
}
