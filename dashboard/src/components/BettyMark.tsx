interface BettyMarkProps {
  className?: string;
}

/** The Betty logo mark; decorative, since the name always stands beside it. */
export function BettyMark({ className }: BettyMarkProps) {
  return (
    <svg viewBox="0 0 32 32" aria-hidden="true" focusable="false" className={className}>
      <rect width="32" height="32" rx="8" className="fill-accent" />
      <path
        d="M11 8h6.2c3.2 0 5.3 1.7 5.3 4.3 0 1.6-.9 2.9-2.3 3.5 1.9.5 3.1 2 3.1 3.9 0 2.9-2.3 4.6-5.8 4.6H11V8Zm3.2 6.7h2.6c1.5 0 2.4-.7 2.4-1.9s-.9-1.9-2.4-1.9h-2.6v3.8Zm0 6.7h3c1.6 0 2.6-.8 2.6-2s-1-2-2.6-2h-3v4Z"
        fill="#fff"
      />
    </svg>
  );
}
