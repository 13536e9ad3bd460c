export * from './model';
export * from './normalize';
export * from './validate';
export * from './phone';
