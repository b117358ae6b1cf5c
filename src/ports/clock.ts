/** The seams through which time enters the system. Tests pass a fixed clock; production passes the wall clock. */
export interface Clock {
  now(): Date;
}
