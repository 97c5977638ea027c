import type { OrderStatus } from "../../../shared/status.ts";
import { PROGRESS_STEPS, STATUS_LABELS, stepIndex } from "../../../shared/status.ts";

// Said after a finished step's name by screen readers; a constant so the leading space survives.
const DONE_SUFFIX = " (done)";

/**
 * The tracking page's progress bar: a bar filled to the status's percentage and the five steps
 * below it, the current one highlighted and the earlier ones filled (docs/product.md#order-status).
 */
export function OrderProgress({ status, progress }: { status: OrderStatus; progress: number }) {
  const current = stepIndex(status);
  return (
    <div className="order-progress">
      <div
        className="progress-track"
        role="progressbar"
        aria-label="Order progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={progress}
        aria-valuetext={`${STATUS_LABELS[status]} (${progress}%)`}
      >
        <div className="progress-fill" style={{ width: `${progress}%` }} />
      </div>
      <ol className="progress-steps">
        {PROGRESS_STEPS.map((step, i) => {
          const state = i < current ? "done" : i === current ? "current" : "todo";
          return (
            <li
              key={step.status}
              className={`progress-step ${state}`}
              aria-current={state === "current" ? "step" : undefined}
              data-testid="progress-step"
            >
              <span className="step-dot" aria-hidden="true">{i < current ? "✓" : i + 1}</span>
              <span className="step-label">
                {step.label}
                {state === "done" && <span className="visually-hidden">{DONE_SUFFIX}</span>}
              </span>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
