import { addDays, isWorkingDay, parisDay, parisMidnight } from '../calendar';

/*
 * The date the workshop promised: the reception date plus the promised turnaround in working days
 * (price list `turnaround`: standard or express). Working days are Monday to Friday except French
 * public holidays, counted in Paris time; the order is due at the end of its last working day.
 */

/**
 * The due date of an order received at `receivedAt` with a turnaround of `workingDays`: the end
 * (23:59:59, Paris) of the `workingDays`-th working day after the reception day.
 */
export function dueDate(receivedAt: Date, workingDays: number): Date {
  if (!Number.isInteger(workingDays) || workingDays < 0) throw new RangeError(`invalid turnaround: ${workingDays}`);
  let day = parisDay(receivedAt);
  for (let left = workingDays; left > 0; ) {
    day = addDays(day, 1);
    if (isWorkingDay(day)) left -= 1;
  }
  return new Date(parisMidnight(addDays(day, 1)).getTime() - 1000);
}

/** Whether an order due at `dueAt` is late at `now`. */
export function isLate(dueAt: Date | null, now: Date): boolean {
  return dueAt !== null && dueAt.getTime() < now.getTime();
}
