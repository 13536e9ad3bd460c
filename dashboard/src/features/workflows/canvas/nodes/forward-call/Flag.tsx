// Small drawn flags for the countries Betty sells numbers in (emoji flags need a font headless
// browsers and some desktops lack); other regions show their two-letter code.

export function Flag({ region }: { region: string }) {
  const common = { width: 21, height: 14, role: 'img', 'aria-label': region, className: 'shrink-0 rounded-[2px] ring-1 ring-line' } as const;
  if (region === 'US')
    return (
      <svg viewBox="0 0 21 14" {...common}>
        <rect width="21" height="14" fill="#fff" />
        {[0, 2, 4, 6, 8, 10, 12].map((y) => (
          <rect key={y} y={y} width="21" height="1.08" fill="#b22234" />
        ))}
        <rect width="9" height="7.5" fill="#3c3b6e" />
      </svg>
    );
  if (region === 'CA')
    return (
      <svg viewBox="0 0 21 14" {...common}>
        <rect width="21" height="14" fill="#fff" />
        <rect width="5.25" height="14" fill="#d52b1e" />
        <rect x="15.75" width="5.25" height="14" fill="#d52b1e" />
        <path d="M10.5 3 12 6.5 13.5 6 12.8 8.5 10.9 8.3 10.9 11H10.1V8.3L8.2 8.5 7.5 6 9 6.5Z" fill="#d52b1e" />
      </svg>
    );
  if (region === 'GB')
    return (
      <svg viewBox="0 0 21 14" {...common}>
        <rect width="21" height="14" fill="#012169" />
        <path d="M0 0 21 14M21 0 0 14" stroke="#fff" strokeWidth="2.8" />
        <path d="M0 0 21 14M21 0 0 14" stroke="#c8102e" strokeWidth="1.2" />
        <path d="M10.5 0V14M0 7H21" stroke="#fff" strokeWidth="4.2" />
        <path d="M10.5 0V14M0 7H21" stroke="#c8102e" strokeWidth="2.4" />
      </svg>
    );
  return (
    <span role="img" aria-label={region} className="rounded bg-muted px-1 text-sm font-semibold text-fg-soft">
      {region}
    </span>
  );
}
