export function Spinner({
  label = "Loading",
  className = "h-5 w-5",
}: {
  label?: string;
  className?: string;
}) {
  return (
    <span role="status" className="inline-flex items-center">
      <svg
        className={`animate-spin text-brand ${className}`}
        viewBox="0 0 24 24"
        fill="none"
        aria-hidden="true"
      >
        <circle
          cx="12"
          cy="12"
          r="10"
          stroke="currentColor"
          strokeWidth="4"
          className="opacity-25"
        />
        <path d="M4 12a8 8 0 018-8" stroke="currentColor" strokeWidth="4" strokeLinecap="round" />
      </svg>
      <span className="sr-only">{label}</span>
    </span>
  );
}

/** The loading screen, a spinner; it fades in late so quick loads do not flash. */
export function LoadingScreen() {
  return (
    <div className="flex min-h-[50vh] animate-[fadein_0.2s_ease-in_0.25s_both] items-center justify-center">
      <Spinner className="h-10 w-10" />
    </div>
  );
}
