// Numbers and days as the user's locale writes them (the webview's language:
// VS Code's display language). pi records costs in US dollars.
export interface UsageFormat {
  money(n: number): string;
  moneyAxis(n: number): string;
  count(n: number): string;
  countAxis(n: number): string;
  day(day: string): string;
  longDay(day: string): string;
}

export function usageFormat(locale?: string): UsageFormat {
  const money = new Intl.NumberFormat(locale, { style: "currency", currency: "USD", minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const small = new Intl.NumberFormat(locale, { style: "currency", currency: "USD", maximumSignificantDigits: 2 });
  const moneyAxis = new Intl.NumberFormat(locale, { style: "currency", currency: "USD", notation: "compact", maximumFractionDigits: 2 });
  const count = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
  const countAxis = new Intl.NumberFormat(locale, { notation: "compact", maximumFractionDigits: 1 });
  const day = new Intl.DateTimeFormat(locale, { month: "short", day: "numeric" });
  const longDay = new Intl.DateTimeFormat(locale, { weekday: "short", year: "numeric", month: "short", day: "numeric" });
  const date = (d: string): Date => {
    const [y, m, dd] = d.split("-").map(Number) as [number, number, number];
    return new Date(y, m - 1, dd);
  };
  return {
    // A cost under a cent is not shown as zero.
    money: (n) => (n > 0 && n < 0.005 ? small.format(n) : money.format(n)),
    moneyAxis: (n) => moneyAxis.format(n),
    count: (n) => count.format(n),
    countAxis: (n) => countAxis.format(n),
    day: (d) => day.format(date(d)),
    longDay: (d) => longDay.format(date(d)),
  };
}
