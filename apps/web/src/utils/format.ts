/** 10000 → '10,000'; decimals are kept as they are; anything not a number → '0'. */
export function toThousandFilter(num: number | string | null | undefined): string {
  const value = Number(num);
  if (num === null || num === undefined || num === '' || !Number.isFinite(value)) return '0';
  const [whole, fraction] = String(value).split('.');
  const sign = whole.startsWith('-') ? '-' : '';
  const digits = sign ? whole.slice(1) : whole;
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}${grouped}${fraction === undefined ? '' : `.${fraction}`}`;
}

/** 1536 → '1.5K' style short numbers, for chart labels. */
export function numberFormatter(num: number, digits = 1): string {
  const units = [
    { value: 1e18, symbol: 'E' },
    { value: 1e15, symbol: 'P' },
    { value: 1e12, symbol: 'T' },
    { value: 1e9, symbol: 'G' },
    { value: 1e6, symbol: 'M' },
    { value: 1e3, symbol: 'k' },
  ];
  for (const unit of units) {
    if (Math.abs(num) >= unit.value) {
      return (num / unit.value).toFixed(digits).replace(/\.0+$|(\.[0-9]*[1-9])0+$/, '$1') + unit.symbol;
    }
  }
  return String(num);
}

/**
 * A label as it stands alone in the English console: sentence case, its first letter capital
 * ('original price' → 'Original price'). Text without a lower-case first letter is unchanged.
 */
export function sentenceCase(text: string): string {
  return text.charAt(0).toLocaleUpperCase('en') + text.slice(1);
}
