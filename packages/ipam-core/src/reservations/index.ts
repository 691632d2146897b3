export { parseReservedCidrs, type ParsedReservations } from './parse-reserved-cidrs.js';
export { createReservationFilter, NO_RESERVATIONS, type ReservationFilter } from './reservation-filter.js';
