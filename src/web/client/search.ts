/** Browser module of the search page (progressive enhancements). */
export {};
